import Simulation

/// The analytics events a run exports, as the Lab doc's single table: one row
/// per event with the columns value, key, variant, experiment, source,
/// reason, id_for_vendor (the device) and day, and the app version that sent
/// it, which the sample ratio check needs to follow a plan's changes of weights.
public enum EventsTable {
  public static let columns = ["value", "key", "variant", "experiment", "source", "reason", "id_for_vendor", "day", "version"]

  public static func csv(_ rows: [EventLog.Row]) -> String {
    header + lines(rows)
  }

  /// The header line, for a table written a piece at a time.
  public static var header: String { CSVText.lines([columns]) }

  /// The rows' lines without the header.
  public static func lines(_ rows: [EventLog.Row]) -> String {
    CSVText.lines(rows.map { row in
      let assignment = row.event.assignment
      return [
        assignment.value.text, assignment.key, assignment.variant, assignment.experiment, assignment.source,
        row.event.reason.rawValue, String(row.device), String(row.day), row.version,
      ]
    })
  }
}

/// The outcomes a run draws, one row per device and metric: id_for_vendor, metric, value.
public enum OutcomesTable {
  public static let columns = ["id_for_vendor", "metric", "value"]

  /// - Parameter metrics: the metrics' names, in the order of each device's values.
  public static func csv(_ outcomes: [(device: Int, values: [Double])], metrics: [String]) -> String {
    header + lines(outcomes, metrics: metrics)
  }

  /// The header line, for a table written a piece at a time.
  public static var header: String { CSVText.lines([columns]) }

  /// The rows' lines without the header.
  public static func lines(_ outcomes: [(device: Int, values: [Double])], metrics: [String]) -> String {
    CSVText.lines(outcomes.flatMap { outcome in
      zip(metrics, outcome.values).map { [String(outcome.device), $0, "\($1)"] }
    })
  }
}
