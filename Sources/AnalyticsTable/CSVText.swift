import CSV
import Foundation

/// CSV text written with CSV.swift, which quotes a field that holds a comma,
/// a quote or a line break, as RFC 4180 does.
enum CSVText {
  static func write(header: [String], rows: [[String]]) -> String {
    let stream = OutputStream.toMemory()
    do {
      let writer = try CSVWriter(stream: stream)
      try writer.write(row: header)
      for row in rows { try writer.write(row: row) }
      writer.stream.close()
    } catch {
      preconditionFailure("writing CSV to memory cannot fail: \(error)")
    }
    let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
