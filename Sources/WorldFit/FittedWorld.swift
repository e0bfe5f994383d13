import AnalyticsTable
import Foundation
import Results
import ScenarioFormat

/// A team's world fitted from its export (docs/world.md): installs, each
/// release's adoption, each platform's activity, sessions and hazard, and
/// the weekdays; written as a scenario with no experiments that `bench` runs
/// as it is and the team adds its experiments to.
public struct FittedWorld: Sendable {
  /// A platform's devices and their fitted activity.
  public struct Segment: Sendable {
    public let observed: ObservedSegment
    public let activity: ActivityFit
    public let sessionsPerActiveDay: Double
    /// The segment's share of the fitted devices.
    public let share: Double
  }

  /// A release, its first day in the export and its observed adoption.
  public struct Release: Sendable {
    public let version: String
    public let releaseDay: Int
    /// The share of the devices active that day, installed before the
    /// release, that run it or a newer one, by day since the release.
    public let curve: [AdoptionPoint]
  }

  public let days: Int
  public let firstWeekday: Weekday
  /// Per weekday from Monday; nil where the export is too short to tell or
  /// the weekdays do not differ by 2%.
  public let weekdayFactors: [Double]?
  public let segments: [Segment]
  public let installs: InstallSchedule
  /// Per day, the new devices the fit finds, over all segments.
  public let newDevices: [Double]
  public let releases: [Release]
  /// Per day and release, the share of the day's active devices running it, as observed.
  public let versionShares: [[Double]]

  /// The most points a release's curve keeps, and the days since the release they are read on.
  static let curveDays = [1, 2, 3, 4, 5, 7, 10, 14, 21, 28, 42, 56, 90, 180, 365]

  /// Fits `activity`, whose day 0 is the calendar day `startDay` (days since 1970).
  public init(_ activity: ExportActivity, startDay: Int) {
    days = activity.days
    let weekdayOfDayZero = Weekday.allCases[((startDay + 3) % 7 + 7) % 7]
    firstWeekday = weekdayOfDayZero
    let observed = ObservedSegment.segments(of: activity)
    var total = ObservedSegment(name: "all", days: days)
    for device in activity.devices { total.add(device) }
    var byDay = Self.factorsByDay(total.active)
    if let factors = byDay, !factors.contains(where: { abs($0 - 1) > 0.02 }) { byDay = nil }
    weekdayFactors = byDay.map { Self.fromMonday($0, firstWeekday: weekdayOfDayZero) }
    let perDay = (0..<days).map { byDay?[$0 % 7] ?? 1 }
    let fits = observed.map { ActivityFit($0, weekday: perDay) }
    let sizes = fits.map { $0.existing + $0.newDevices.dropFirst().reduce(0, +) + ($0.newDevices.first ?? 0) }
    let all = max(sizes.reduce(0, +), 1)
    segments = zip(observed, zip(fits, sizes)).map { segment, fitAndSize in
      Segment(
        observed: segment, activity: fitAndSize.0, sessionsPerActiveDay: segment.sessionsPerActiveDay, share: fitAndSize.1 / all)
    }
    newDevices = (0..<days).map { day in fits.reduce(0) { $0 + $1.newDevices[day] } }
    installs = Self.schedule(existing: fits.reduce(0) { $0 + $1.existing }, newDevices: newDevices)
    (releases, versionShares) = Self.releases(of: activity)
  }

  /// Each weekday's factor by `day % 7`: the active devices over their
  /// centred 7-day mean, averaged per weekday and scaled to a mean of 1; nil
  /// for fewer than three weeks.
  static func factorsByDay(_ active: [Double]) -> [Double]? {
    guard active.count >= 21 else { return nil }
    var sums = [Double](repeating: 0, count: 7), counts = sums
    for day in 3..<(active.count - 3) {
      let window = active[(day - 3)...(day + 3)].reduce(0, +) / 7
      guard window > 0 else { continue }
      sums[day % 7] += active[day] / window
      counts[day % 7] += 1
    }
    guard counts.allSatisfy({ $0 > 0 }) else { return nil }
    let raw = zip(sums, counts).map { $0 / $1 }
    let mean = raw.reduce(0, +) / 7
    return raw.map { $0 / mean }
  }

  /// Factors by `day % 7` put in Monday-first order.
  static func fromMonday(_ factors: [Double], firstWeekday: Weekday) -> [Double] {
    let first = Weekday.allCases.firstIndex(of: firstWeekday)!
    return (0..<7).map { factors[((($0 - first) % 7) + 7) % 7] }
  }

  /// The install schedule: the devices before day 0, the median of the new
  /// devices of days 1 on as the daily level (day 0's are the least sure:
  /// every device active that day is first seen then), and as campaigns the
  /// runs of days whose new devices stand out from it by more than four
  /// Poisson standard deviations and a quarter.
  static func schedule(existing: Double, newDevices: [Double]) -> InstallSchedule {
    let later = Array(newDevices.dropFirst()).sorted()
    let daily = later.isEmpty ? 0 : later.count % 2 == 1
      ? later[later.count / 2] : (later[later.count / 2 - 1] + later[later.count / 2]) / 2
    let threshold = daily * 1.25 + 4 * max(daily, 1).squareRoot()
    var campaigns: [InstallSchedule.Campaign] = []
    var day = 1
    while day < newDevices.count {
      guard newDevices[day] > threshold else {
        day += 1
        continue
      }
      var end = day
      while end + 1 < newDevices.count && newDevices[end + 1] > threshold { end += 1 }
      let extra = newDevices[day...end].reduce(0) { $0 + $1 - daily } / Double(end - day + 1)
      campaigns.append(InstallSchedule.Campaign(day: day, days: end - day + 1, daily: extra))
      day = end + 1
    }
    return InstallSchedule(existing: existing, daily: daily, campaigns: campaigns)
  }

  /// The position of `day` in a device's days, which are in order: a binary
  /// search, as a release's curve looks up every device on a dozen days.
  static func index(of day: Int, in days: [Int]) -> Int? {
    var low = 0, high = days.count
    while low < high {
      let middle = (low + high) / 2
      if days[middle] < day { low = middle + 1 } else { high = middle }
    }
    return low < days.count && days[low] == day ? low : nil
  }

  /// The releases: the version most devices ran on day 0, then each version
  /// first seen later (in order of its first day, one a day, 100 at most, a
  /// scenario's limit) that reached 1% of a day's active devices; and each
  /// day's shares of them.
  static func releases(of activity: ExportActivity) -> ([Release], [[Double]]) {
    guard activity.hasVersions, activity.days > 0 else { return ([], []) }
    let versions = activity.versions.count
    var firstDay = [Int](repeating: .max, count: versions)
    var perDay = [[Double]](repeating: [Double](repeating: 0, count: versions), count: activity.days)
    for device in activity.devices {
      for (day, version) in zip(device.days, device.versions) where version >= 0 {
        firstDay[version] = min(firstDay[version], day)
        perDay[day][version] += 1
      }
    }
    let peak = (0..<versions).map { version in
      perDay.map { day in day[version] / max(day.reduce(0, +), 1) }.max() ?? 0
    }
    let first = (0..<versions).max { perDay[0][$0] < perDay[0][$1] } ?? 0
    var kept = [first]
    for version in (0..<versions).sorted(by: { (firstDay[$0], $0) < (firstDay[$1], $1) })
    where version != first && firstDay[version] > 0 && firstDay[version] < activity.days && peak[version] >= 0.01 {
      // A scenario holds at most 100 versions: later releases count as the last one kept.
      if firstDay[version] > firstDay[kept.last!], kept.count < ScenarioLimits.versions.upperBound { kept.append(version) }
    }
    // Each version's rank among the kept ones: a dropped one counts as the kept one before it.
    var rank = [Int](repeating: 0, count: versions)
    for version in 0..<versions {
      rank[version] = kept.lastIndex { firstDay[$0] <= firstDay[version] } ?? 0
    }
    for (index, version) in kept.enumerated() { rank[version] = index }
    var releases = [Release(version: activity.versions[first], releaseDay: 0, curve: [])]
    for index in 1..<max(kept.count, 1) where index < kept.count {
      let version = kept[index], release = firstDay[version]
      var points: [AdoptionPoint] = []
      for after in curveDays where release + after < activity.days {
        var running = 0.0, updated = 0.0
        for device in activity.devices where (device.days.first ?? .max) < release {
          guard let position = Self.index(of: release + after, in: device.days), device.versions[position] >= 0 else { continue }
          running += 1
          if rank[device.versions[position]] >= index { updated += 1 }
        }
        guard running > 0 else { continue }
        let share = max(updated / running, points.last?.share ?? 0)
        points.append(AdoptionPoint(day: Double(after), share: min(share, 1)))
      }
      releases.append(Release(version: activity.versions[version], releaseDay: release, curve: points))
    }
    let shares = perDay.map { day -> [Double] in
      let total = max(day.reduce(0, +), 1)
      var byRelease = [Double](repeating: 0, count: releases.count)
      for version in 0..<versions where day[version] > 0 { byRelease[rank[version]] += day[version] / total }
      return byRelease
    }
    return (releases, shares)
  }
}
