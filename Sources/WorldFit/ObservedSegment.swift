import AnalyticsTable

/// What an export shows of one segment's devices day by day: the devices
/// first seen each day, the devices active each day, how the devices of day
/// 0 come back, and their sessions. The figures the activity model is fitted
/// to (`ActivityFit`) and the fit report compares with the fitted world.
public struct ObservedSegment: Sendable {
  /// The platform, or "everyone" for an export without one.
  public let name: String
  /// Per day, the devices whose first event is that day.
  public internal(set) var firstSeen: [Double]
  /// Per day, the devices with an event that day.
  public internal(set) var active: [Double]
  /// Per day t, the devices first seen on day 0 that are active on day t.
  public internal(set) var cohortActive: [Double]
  /// Of the devices first seen on days 1 to `lastNewCohortDay` (new devices
  /// and older ones seen late), those active k days later, by k from 1 to
  /// `newCohortAges` (index k − 1): how new devices come back.
  public internal(set) var newCohortActive: [Double]
  /// The last first day of the devices `newCohortActive` follows: every one of
  /// them can be seen `newCohortAges` days on, and at most 60 (a bounded sum).
  public let lastNewCohortDay: Int
  /// The ages, in days, the new devices are followed to.
  public static let newCohortAges = 14
  public internal(set) var devices = 0
  public internal(set) var activeDays = 0
  public internal(set) var sessions = 0
  /// Per metric (`ExportActivity.Device.metricEvents`), the devices with one
  /// of its events, and the sum and sum of squares of the devices' amounts.
  public internal(set) var metricDevices: [Double] = []
  public internal(set) var metricSums: [Double] = []
  public internal(set) var metricSquares: [Double] = []

  init(name: String, days: Int) {
    self.name = name
    firstSeen = Array(repeating: 0, count: days)
    active = Array(repeating: 0, count: days)
    cohortActive = Array(repeating: 0, count: days)
    newCohortActive = Array(repeating: 0, count: Self.newCohortAges)
    lastNewCohortDay = min(60, days - 1 - Self.newCohortAges)
  }

  mutating func add(_ device: ExportActivity.Device) {
    guard let first = device.days.first else { return }
    devices += 1
    firstSeen[first] += 1
    for day in device.days {
      active[day] += 1
      if first == 0 { cohortActive[day] += 1 }
      if first >= 1, first <= lastNewCohortDay, day > first, day - first <= Self.newCohortAges {
        newCohortActive[day - first - 1] += 1
      }
    }
    activeDays += device.days.count
    sessions += device.sessions.reduce(0, +)
    if metricDevices.isEmpty {
      metricDevices = Array(repeating: 0, count: device.metricEvents.count)
      metricSums = metricDevices
      metricSquares = metricDevices
    }
    for index in device.metricEvents.indices {
      if device.metricEvents[index] > 0 { metricDevices[index] += 1 }
      metricSums[index] += device.metricSums[index]
      metricSquares[index] += device.metricSums[index] * device.metricSums[index]
    }
  }

  /// The devices' mean sessions on a day they are active.
  public var sessionsPerActiveDay: Double { activeDays > 0 ? Double(sessions) / Double(activeDays) : 1 }

  /// The most platforms fitted apart; the devices of the others are fitted
  /// together as "other". Each segment is a search of its own, and an export's
  /// platform column may hold anything (a browser's name, a typo).
  public static let mostPlatforms = 8

  /// The segments of an export: one per platform, in order of their devices
  /// (most first, then by name), the smallest beyond `mostPlatforms` − 1 as
  /// one "other"; or one of every device.
  public static func segments(of activity: ExportActivity) -> [ObservedSegment] {
    var devices: [String: Int] = [:]
    for device in activity.devices where activity.hasPlatforms { devices[device.platform ?? "unknown", default: 0] += 1 }
    let ranked = devices.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
    let kept = Set(ranked.count > mostPlatforms ? ranked.prefix(mostPlatforms - 1) : ranked[...])
    var byName: [String: ObservedSegment] = [:]
    for device in activity.devices {
      let platform = device.platform ?? "unknown"
      let name = activity.hasPlatforms ? (kept.contains(platform) ? platform : "other") : "everyone"
      byName[name, default: ObservedSegment(name: name, days: activity.days)].add(device)
    }
    return byName.values.sorted { ($1.devices, $0.name) < ($0.devices, $1.name) }
  }
}
