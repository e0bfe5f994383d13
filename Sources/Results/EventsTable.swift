import Simulation

/// The analytics events as the Lab doc's single table, in CSV: one row per
/// event with the columns value, key, variant, experiment, source, reason,
/// id_for_vendor (the device) and day.
public enum EventsTable {
  public static let columns = ["value", "key", "variant", "experiment", "source", "reason", "id_for_vendor", "day"]

  public static func csv(_ rows: [EventLog.Row]) -> String {
    var text = columns.joined(separator: ",") + "\n"
    for row in rows {
      let assignment = row.event.assignment
      let fields = [
        assignment.value.text, assignment.key, assignment.variant, assignment.experiment, assignment.source,
        row.event.reason.rawValue, String(row.device), String(row.day),
      ]
      text += fields.map(CSVField.escape).joined(separator: ",") + "\n"
    }
    return text
  }
}

/// CSV fields as RFC 4180 writes them: quoted when they hold a comma, a quote
/// or a line break, with quotes doubled.
enum CSVField {
  static func escape(_ field: String) -> String {
    guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
