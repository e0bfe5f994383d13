/// What an export says of each device's use of the app, for `bench fit`: the
/// days it was active, its sessions on each, the app version it ran each day
/// and its platform. Every row of a unit counts as activity on its day; a
/// session is a row of the mapping's `sessionEvent` or of its other names
/// (`ExportMapping.sessionEventAliases`), or of the event the caller names
/// (without one, an active day is one session).
public struct ExportActivity: Sendable {
  /// A device's days, in order.
  public struct Device: Sendable {
    /// Days from the export's day 0 the device sent any event.
    public internal(set) var days: [Int] = []
    /// Per active day, its sessions.
    public internal(set) var sessions: [Int] = []
    /// Per active day, the newest app version seen that day, as an index of `versions`; −1 for none.
    public internal(set) var versions: [Int] = []
    public internal(set) var platform: String?
    /// Per metric asked for, the device's events of its event over the
    /// export, and the sum of their property (0 without one).
    public internal(set) var metricEvents: [Int] = []
    public internal(set) var metricSums: [Double] = []
  }

  public internal(set) var devices: [Device] = []
  /// The app versions seen, in order of first appearance.
  public internal(set) var versions: [String] = []
  /// The export's days: day 0 is `--start` or the first event's day.
  public internal(set) var days = 0
  /// The calendar day of the first event, as days since 1970.
  public internal(set) var firstCalendarDay = 0
  /// Whether the rows carry sessions, app versions and platforms at all.
  public internal(set) var hasSessions = false
  public internal(set) var hasVersions = false
  public internal(set) var hasPlatforms = false
  /// Rows left out as malformed (with `skipMalformed`).
  public internal(set) var skipped: [(line: Int, reason: String)] = []

  /// Reads `path` with `mapping`; times by `time`, whose `start` sets day 0;
  /// each of `metrics` counted per device, its property summed (a present
  /// property must be a number, as `bench analyze` reads it).
  public init(
    path: String, mapping: ExportMapping, time: EventTime, sessionEvent: String?, metrics: [EventsAnalysis.EventMetric] = [],
    skipMalformed: Bool = false, dayLimit: Int
  ) throws(AnalyticsTableError) {
    let reader = ExportReader(
      path: path, format: mapping.format ?? (path.lowercased().hasSuffix(".csv") ? .csv : .jsonl),
      required: [mapping.event, mapping.time] + mapping.unit.prefix(1), optional: mapping.unit.dropFirst() + mapping.appVersion + mapping.platform)
    var numbers: [String: Int] = [:]
    var versionNumbers: [String: Int] = [:]
    var rows: [(device: Int, day: Int, session: Bool, version: Int, platform: String?)] = []
    // Per device, per metric: its events and the sum of their property.
    var metricEvents: [[Int]] = [], metricSums: [[Double]] = []
    let propertyPaths = metrics.map { metric in
      metric.property.map { property in [mapping.propertyPath(property), FieldPath(property)].compactMap { $0 } } ?? []
    }
    var firstDay = Int.max
    // The option names one event; a mapping's own takes its other names too.
    let sessions = Set(sessionEvent.map { [$0] } ?? mapping.sessionEvent.map { [$0] + (ExportMapping.sessionEventAliases[$0] ?? []) } ?? [])
    var sawSession = false, sawVersion = false, sawPlatform = false
    skipped = try reader.read(skipMalformed: skipMalformed) { (row: JSONValue, _: Int) throws(RowError) in
      guard let unit = mapping.unit.lazy.compactMap({ $0.resolve(in: row)?.text }).first(where: { !$0.isEmpty }) else { return }
      guard let timeText = mapping.time.resolve(in: row)?.text, let instant = time.instant(of: timeText) else {
        throw RowError("has no time of the format \(time.format.rawValue) at \(mapping.time)")
      }
      let event = mapping.event.resolve(in: row)?.text
      let isSession = event.map(sessions.contains) ?? false
      sawSession = sawSession || isSession
      var version = -1
      if let text = mapping.appVersion.lazy.compactMap({ $0.resolve(in: row)?.text }).first(where: { !$0.isEmpty }) {
        version = versionNumbers[text] ?? {
          versionNumbers[text] = versionNumbers.count
          return versionNumbers.count - 1
        }()
        sawVersion = true
      }
      let platform = mapping.platform.lazy.compactMap { $0.resolve(in: row)?.text }.first { !$0.isEmpty }
      sawPlatform = sawPlatform || platform != nil
      let device = numbers[unit] ?? {
        numbers[unit] = numbers.count
        metricEvents.append(Array(repeating: 0, count: metrics.count))
        metricSums.append(Array(repeating: 0, count: metrics.count))
        return numbers.count - 1
      }()
      for (index, metric) in metrics.enumerated() where event == metric.event {
        metricEvents[device][index] += 1
        guard let property = metric.property else { continue }
        // Absent, null or empty, the property adds 0, as `bench analyze` sums it.
        guard let text = propertyPaths[index].lazy.compactMap({ $0.resolve(in: row)?.text }).first(where: { !$0.isEmpty }) else { continue }
        metricSums[device][index] += try EventsAnalysis.amount(text, of: property)
      }
      rows.append((device, instant.day, isSession, version, platform))
      firstDay = min(firstDay, instant.day)
    }
    guard !rows.isEmpty else { throw .missingFields(path: path, fields: [mapping.event.description, mapping.time.description]) }
    let start = time.start ?? firstDay
    firstCalendarDay = firstDay
    versions = versionNumbers.sorted { $0.value < $1.value }.map(\.key)
    hasSessions = sawSession
    hasVersions = sawVersion
    hasPlatforms = sawPlatform
    devices = Array(repeating: Device(), count: numbers.count)
    for index in devices.indices {
      devices[index].metricEvents = metricEvents[index]
      devices[index].metricSums = metricSums[index]
    }
    // A device's rows by day: rows are in file order, not necessarily in time order.
    rows.sort { ($0.device, $0.day) < ($1.device, $1.day) }
    var lastDay = 0
    for row in rows where row.day >= start {
      let day = row.day - start
      guard day < dayLimit else { throw .spanTooLong(path: path, days: day + 1, limit: dayLimit) }
      lastDay = max(lastDay, day)
      var device = devices[row.device]
      if device.days.last != day {
        device.days.append(day)
        device.sessions.append(0)
        device.versions.append(-1)
      }
      let index = device.days.count - 1
      if row.session { device.sessions[index] += 1 }
      device.versions[index] = max(device.versions[index], row.version)
      device.platform = device.platform ?? row.platform
      devices[row.device] = device
    }
    if !hasSessions {
      for index in devices.indices { devices[index].sessions = devices[index].days.map { _ in 1 } }
    }
    devices.removeAll { $0.days.isEmpty }
    days = lastDay + 1
  }
}

extension ExportActivity {
  /// The devices active on each day.
  public var activeByDay: [Int] {
    var active = [Int](repeating: 0, count: days)
    for device in devices {
      for day in device.days { active[day] += 1 }
    }
    return active
  }

  /// The export from `range`'s first day to its last, day 0 moving to its
  /// start (`firstCalendarDay` stays the first event's); devices with no day
  /// left are left out.
  public func keeping(days range: Range<Int>) -> ExportActivity {
    var kept = self
    kept.days = range.count
    kept.devices = devices.compactMap { device in
      var trimmed = Device()
      trimmed.platform = device.platform
      trimmed.metricEvents = device.metricEvents
      trimmed.metricSums = device.metricSums
      for (index, day) in device.days.enumerated() where range.contains(day) {
        trimmed.days.append(day - range.lowerBound)
        trimmed.sessions.append(device.sessions[index])
        trimmed.versions.append(device.versions[index])
      }
      return trimmed.days.isEmpty ? nil : trimmed
    }
    return kept
  }
}
