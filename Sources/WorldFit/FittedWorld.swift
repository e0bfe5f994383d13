import AnalyticsTable
import Foundation
import Results
import ScenarioFormat
import Statistics

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
    /// Google Play's stages as its new installs show them
    /// (`FittedWorld.playStages`); empty where Play served it to everyone.
    public internal(set) var playStages: [RolloutStage] = []
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
  public private(set) var releases: [Release]
  /// Per day and release, the share of the day's active devices running it, as observed.
  public let versionShares: [[Double]]
  /// The metrics asked for, with their baselines per segment.
  public let metrics: [FittedMetric]

  /// The days since a release its curve is read on: the release day itself
  /// (devices that took it that day), every day of the first two weeks, as
  /// the App Store's phased release and Google Play's stages move by the day,
  /// then weeks and months.
  static let curveDays = Array(0...14) + [21, 28, 42, 56, 90, 180, 365]

  /// Fits `activity`, whose day 0 is the calendar day `startDay` (days since
  /// 1970), and the baselines of `metrics`, which `activity` was read with.
  public init(_ activity: ExportActivity, startDay: Int, metrics: [EventsAnalysis.EventMetric] = []) {
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
    self.metrics = metrics.enumerated().map { FittedMetric($1, index: $0, segments: observed) }
    installs = Self.schedule(existing: fits.reduce(0) { $0 + $1.existing }, newDevices: newDevices)
    var ranks: [Int]
    (releases, versionShares, ranks) = Self.releases(of: activity)
    let play = segments.filter { AppStoreKind(platform: $0.observed.name) == .googlePlay }
    if !play.isEmpty {
      let playNew = (0..<days).map { day in play.reduce(0) { $0 + $1.activity.newDevices[day] } }
      for index in releases.indices.dropFirst() {
        releases[index].playStages = Self.playStages(
          of: index, releases: releases, ranks: ranks, activity: activity, newDevices: playNew)
      }
    }
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
  static func releases(of activity: ExportActivity) -> ([Release], [[Double]], [Int]) {
    guard activity.hasVersions, activity.days > 0 else { return ([], [], []) }
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
        guard running > 0, after > 0 || updated > 0 else { continue }
        let share = max(updated / running, points.last?.share ?? 0)
        // The share's 95% Wilson interval over the devices read, its ends never falling as the share
        // does not: each end is a curve the plan can run at (`Scenario.atAdoptionEnd`).
        let wilson = ProportionTests.wilsonInterval(successes: Int(updated), trials: Int(running), confidence: 0.95)!
        let low = max(wilson.lower, points.last?.interval?.lowerBound ?? 0)
        let high = max(wilson.upper, points.last?.interval?.upperBound ?? 0)
        points.append(AdoptionPoint(day: Double(after), share: min(share, 1), interval: low...min(high, 1)))
      }
      releases.append(Release(version: activity.versions[version], releaseDay: release, curve: points))
    }
    let shares = perDay.map { day -> [Double] in
      let total = max(day.reduce(0, +), 1)
      var byRelease = [Double](repeating: 0, count: releases.count)
      for version in 0..<versions where day[version] > 0 { byRelease[rank[version]] += day[version] / total }
      return byRelease
    }
    return (releases, shares, rank)
  }

  /// Google Play's stages for release `index`, read off the Android devices
  /// first seen on each day from the release to the next one. Play serves a
  /// staged version to a share of new installs as of updates, but a curve
  /// measured on the devices installed before the release carries the updates
  /// only: without stages, every new Android device of the fitted world would
  /// install the release on its day. The devices first seen on a day are the
  /// new ones the fit finds (`newDevices`) and older ones seen late, which run
  /// the release as the curve says; what is left is the new devices' share,
  /// made a stairway that never falls (pooled adjacent violators, weighted by
  /// the new devices), whose steps are the stages. None where the share is
  /// 97% or more from the release day: Play served it to everyone.
  static func playStages(
    of index: Int, releases: [Release], ranks: [Int], activity: ExportActivity, newDevices: [Double]
  ) -> [RolloutStage] {
    let release = releases[index].releaseDay
    let end = index + 1 < releases.count ? releases[index + 1].releaseDay : activity.days
    guard end > release else { return [] }
    var seen = [Double](repeating: 0, count: end - release), onRelease = seen
    for device in activity.devices where AppStoreKind(platform: device.platform) == .googlePlay {
      guard let first = device.days.first, first >= release, first < end, device.versions[0] >= 0 else { continue }
      seen[first - release] += 1
      if ranks[device.versions[0]] >= index { onRelease[first - release] += 1 }
    }
    // Each day's share of the new devices on the release, and its weight.
    var levels: [(share: Double, weight: Double, day: Int)] = []
    for after in seen.indices {
      let new = min(newDevices[release + after], seen[after])
      guard new >= 1 else { continue }
      let older = seen[after] - new
      let share = (onRelease[after] - older * releases[index].curve.share(after: Double(after))) / new
      levels.append((min(max(share, 0), 1), new, after))
    }
    guard !levels.isEmpty else { return [] }
    // Pooled adjacent violators: a level that falls below the one before is pooled with it.
    var pooled: [(share: Double, weight: Double, day: Int)] = []
    for level in levels {
      var current = level
      while let last = pooled.last, last.share >= current.share {
        let weight = last.weight + current.weight
        current = ((last.share * last.weight + current.share * current.weight) / weight, weight, last.day)
        pooled.removeLast()
      }
      pooled.append(current)
    }
    guard pooled[0].share < 0.97 else { return [] }
    return pooled.map { RolloutStage(day: release + ($0.day == levels[0].day ? 0 : $0.day), share: $0.share) }
      .filter { $0.share > 0 || $0.day > release }
  }
}

extension FittedWorld {
  /// The days an export covers whole. An export cut during its first or last
  /// day (one that begins or ends at an hour, not at midnight) holds that
  /// day's early or late events only: fitted as a whole day, a short last day
  /// reads as devices stopping for good, and a short first day as devices
  /// installed since. A first or last day with fewer than half the active
  /// devices of the mean of the seven days beside it is left out (one at each
  /// end at most, and only from exports of 9 days or more).
  public static func completeDays(active: [Int]) -> Range<Int> {
    let days = active.count
    guard days >= 9 else { return 0..<days }
    func mean(_ range: Range<Int>) -> Double { Double(active[range].reduce(0, +)) / Double(range.count) }
    let first = Double(active[0]) < 0.5 * mean(1..<8) ? 1 : 0
    let end = Double(active[days - 1]) < 0.5 * mean((days - 8)..<(days - 1)) ? days - 1 : days
    return first..<end
  }
}
