import Lab

/// The analytics events a run exports, as the Lab doc's single table: one row
/// per event with the columns value, key, variant, experiment, source,
/// reason, id_for_vendor (the device) and day, and the app version that sent
/// it, which the sample ratio check needs to follow a plan's changes of weights.
public enum EventsTable {
  public static let columns = ["value", "key", "variant", "experiment", "source", "reason", "id_for_vendor", "day", "version"]

  public static func csv(_ rows: [EventLog.Row]) -> String {
    var lines = CSVLines(header: columns)
    append(rows, to: &lines)
    return String(decoding: lines.bytes, as: UTF8.self)
  }

  /// The header line, for a table written a piece at a time.
  public static var header: [UInt8] { CSVLines(header: columns).bytes }

  /// Appends the rows' lines.
  public static func append(_ rows: [EventLog.Row], to lines: inout CSVLines) {
    for row in rows {
      let assignment = row.event.assignment
      lines.field(assignment.value.text)
      lines.field(assignment.key)
      lines.field(assignment.variant)
      lines.field(assignment.experiment)
      lines.field(assignment.source)
      lines.field(row.event.reason.rawValue)
      lines.field(row.device)
      lines.field(row.day)
      lines.field(row.version)
      lines.endLine()
    }
  }
}

/// The outcomes a run draws, one row per device and metric: id_for_vendor, metric, value.
public enum OutcomesTable {
  public static let columns = ["id_for_vendor", "metric", "value"]

  /// - Parameter metrics: the metrics' names, in the order of each device's values.
  public static func csv(_ outcomes: [(device: Int, values: [Double])], metrics: [String]) -> String {
    var lines = CSVLines(header: columns)
    append(outcomes, metrics: metrics, to: &lines)
    return String(decoding: lines.bytes, as: UTF8.self)
  }

  /// The header line, for a table written a piece at a time.
  public static var header: [UInt8] { CSVLines(header: columns).bytes }

  /// Appends the outcomes' lines.
  public static func append(_ outcomes: [(device: Int, values: [Double])], metrics: [String], to lines: inout CSVLines) {
    for outcome in outcomes {
      for (metric, value) in zip(metrics, outcome.values) {
        lines.field(outcome.device)
        lines.field(metric)
        lines.field(value.description)
        lines.endLine()
      }
    }
  }
}

/// Watches a batch of devices as the simulation runs them and writes their
/// events and outcomes tables' lines as each device finishes, on the thread
/// that simulates the batch, so that the tables are formatted in parallel and
/// the batch keeps only its lines, not its events.
public struct EventsTableWriter: DeviceObserver, Sendable {
  public static var isObserving: Bool { true }

  private var log: EventLog
  private let metrics: [String]
  /// By event number (`EventLog.event(_:)`): its fields from value to reason.
  private var eventFields: [CSVLines.Fragment] = []
  private let versionFields: [CSVLines.Fragment]
  /// The lines of the batch's devices so far, in device order.
  public private(set) var events = CSVLines()
  public private(set) var outcomes = CSVLines()
  /// The events written so far.
  public private(set) var eventCount = 0

  public init(plan: SimulationPlan) {
    log = EventLog(plan: plan)
    metrics = plan.scenario.metrics.map(\.name)
    versionFields = log.versionNames.map { CSVLines.Fragment([$0]) }
  }

  public mutating func started(device: Int, token: Lab.ActiveExperimentsToken, segment: Int, installDay: Int?, upgradeDays: [Double?]) {
    log.started(device: device, token: token, segment: segment, installDay: installDay, upgradeDays: upgradeDays)
  }

  public mutating func launched(_ launch: LaunchRecord) {
    log.launched(launch)
  }

  public mutating func finished(outcomes values: [Double]) {
    log.finished(outcomes: values)
    while eventFields.count < log.eventNumbers {
      let event = log.event(eventFields.count), assignment = event.assignment
      eventFields.append(CSVLines.Fragment([
        assignment.value.text, assignment.key, assignment.variant, assignment.experiment, assignment.source,
        event.reason.rawValue,
      ]))
    }
    for record in log.records {
      events.append(eventFields[record.event])
      events.field(record.device)
      events.field(record.day)
      events.append(versionFields[record.version])
      events.endLine()
    }
    OutcomesTable.append(log.outcomes, metrics: metrics, to: &outcomes)
    eventCount += log.records.count
    log.removeAll()
  }
}
