import Foundation
import Results
import ScenarioFormat

/// The Lab doc's own tables: its analytics events ("displayed", "activated")
/// and the outcomes table beside them.
extension EventsAnalysis {
  /// Reads the Lab table: its "displayed" events, and activations for the version that selected a variant.
  static func readLabTable(
    _ eventsPath: String, options: Options, lastDay: Int, into reading: inout Reading
  ) throws(AnalyticsTableError) -> [(path: String, line: Int, reason: String)] {
    let eventsReader = TableReader(path: eventsPath, columns: options.columns)
    // The reading thread numbers the ids, going on from the analysis's numbering.
    var ids = reading.devices.takeIds()
    defer { reading.devices.giveBack(ids) }
    let skipped = try eventsReader.read(EventColumn.self, skipMalformed: options.skipMalformed, key: .device, numbers: &ids) {
      (row: TableRow<EventColumn>) throws(RowError) in
      // With versions, activations say which version's weights selected a device's variant.
      let activated = row.field(.reason, is: "activated")
      if activated || row.field(.reason, is: "deactivated"), !row.isEmpty(.version) {
        reading.exposures.track(
          device: row.key, experiment: row.bytes(.experiment),
          variant: activated ? row.bytes(.variant) : nil, version: row.bytes(.version))
        return
      }
      guard row.field(.reason, is: "displayed") else { return }
      let device = row.bytes(.device), experiment = row.bytes(.experiment), variant = row.bytes(.variant)
      guard !device.isEmpty else { throw RowError("has an empty id_for_vendor") }
      guard !experiment.isEmpty, !variant.isEmpty else { throw RowError("has an empty experiment or variant") }
      let instant: EventTime.Instant
      if options.time.format == .day {
        guard let day = options.time.day(of: row.bytes(.day)), (0..<lastDay + 1).contains(day) else {
          throw RowError(Self.timeProblem(row[.day], column: "day", options: options, lastDay: lastDay))
        }
        instant = EventTime.Instant(day: day)
      } else {
        instant = try Self.instant(row[.day], column: "day", options: options, lastDay: lastDay)
      }
      let number = row.key
      if !options.excludedVariants.isEmpty {
        let experimentName = String(decoding: experiment, as: UTF8.self), variantName = String(decoding: variant, as: UTF8.self)
        if options.excludedVariants[experimentName]?.contains(variantName) == true {
          reading.leftOut.notArms[experimentName, default: [:]][variantName, default: 0] += 1
          return
        }
      }
      reading.exposures.record(device: number, experiment: experiment, variant: variant, at: instant, version: row.bytes(.version))
      reading.devices.count(number)
    }.map { (path: eventsPath, line: $0.line, reason: $0.reason) }
    guard !reading.exposures.experiments.isEmpty else { throw .noDisplayedEvents(path: eventsPath) }
    return skipped
  }

  /// Reads the outcomes table into `outcomes`, and rows with a time into
  /// `timed` (events, counted at or after each device's first exposure);
  /// returns the rows skipped as malformed.
  static func readOutcomes(
    _ path: String, into outcomes: inout OutcomeLog, timed: inout TimedOutcomes, devices: inout DeviceNumbers,
    options: Options, lastDay: Int
  ) throws(AnalyticsTableError) -> [(path: String, line: Int, reason: String)] {
    var timedMetrics: [String: Int] = [:]
    var ids = devices.takeIds()
    defer { devices.giveBack(ids) }
    return try TableReader(path: path, columns: options.columns).read(
      OutcomeColumn.self, skipMalformed: options.skipMalformed, key: .device, numbers: &ids
    ) { (row: TableRow<OutcomeColumn>) throws(RowError) in
      let device = row.bytes(.device), metric = row.bytes(.metric)
      guard !device.isEmpty, !metric.isEmpty else { throw RowError("has an empty id_for_vendor or metric") }
      let value = try Self.amount(row.bytes(.value), of: "value")
      let number = row.key
      if !row.isEmpty(.time) {
        let instant = try Self.instant(row[.time], column: "time", options: options, lastDay: lastDay)
        let name = row[.metric]
        let index = timedMetrics[name] ?? timed.metric(named: name)
        timedMetrics[name] = index
        timed.record(device: number, metric: index, time: instant.nanoseconds, value: value)
      } else if !outcomes.record(device: number, metric: metric, value: value) {
        throw RowError(
          "repeats the \(row[.metric]) of device \(row[.device]): give each device one row per metric, or pass --outcome-events to sum them")
      }
      devices.count(number)
    }.map { (path: path, line: $0.line, reason: $0.reason) }
  }
}

/// The events table's columns: "version" is optional.
private enum EventColumn: Int, TableColumn {
  case variant, experiment, reason, device, day, version

  var name: String {
    switch self {
    case .variant: "variant"
    case .experiment: "experiment"
    case .reason: "reason"
    case .device: "id_for_vendor"
    case .day: "day"
    case .version: "version"
    }
  }

  var isOptional: Bool { self == .version }
}

/// The outcomes table's columns: "time" is optional; a row with one is an
/// event, counted at or after the device's first exposure.
private enum OutcomeColumn: Int, TableColumn {
  case device, metric, value, time

  var name: String {
    switch self {
    case .device: "id_for_vendor"
    case .metric: "metric"
    case .value: "value"
    case .time: "time"
    }
  }

  var isOptional: Bool { self == .time }
}
