import CSV
import Foundation

/// CSV text written with CSV.swift, which quotes a field that holds a comma,
/// a quote or a line break, as RFC 4180 does.
enum CSVText {
  /// The rows as CSV lines, each ending with a line break: a piece of a table
  /// that can be written after another.
  static func lines(_ rows: [[String]]) -> String {
    guard !rows.isEmpty else { return "" }
    let stream = OutputStream.toMemory()
    do {
      let writer = try CSVWriter(stream: stream)
      for row in rows { try writer.write(row: row) }
      writer.stream.close()
    } catch {
      preconditionFailure("writing CSV to memory cannot fail: \(error)")
    }
    let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
