import CSV
import Foundation

/// Reads a CSV table whose header names its columns, finds the columns a
/// reader needs by name (or by the name an option maps them to), and hands
/// each row to the reader with its line number.
struct TableReader {
  let path: String
  /// The columns' names in this file, by the name the bench uses.
  let columns: [String: String]

  /// - Parameters:
  ///   - required: the bench's names of the columns the reader needs.
  ///   - handle: reads one row by the bench's column names; throws a message
  ///     for a malformed row.
  /// - Returns: the rows skipped as malformed, with their line numbers and reasons.
  func read(
    required: [String], skipMalformed: Bool, handle: (_ field: (String) -> String) throws(RowError) -> Void
  ) throws(AnalyticsTableError) -> [(line: Int, reason: String)] {
    // Read whole: Foundation's InputStream on Linux reports an error at the end
    // of a file, which CSV.swift's stream reader cannot tell from a real one.
    guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
    let reader: CSVReader
    do {
      reader = try CSVReader(string: String(decoding: data, as: UTF8.self), hasHeaderRow: true)
    } catch {
      throw .unreadable(path: path)
    }
    let header = reader.headerRow ?? []
    var positions: [String: Int] = [:]
    for name in required {
      let fileName = columns[name] ?? name
      guard let position = header.firstIndex(of: fileName) else {
        throw .missingColumn(path: path, column: fileName, role: name, found: header)
      }
      positions[name] = position
    }
    var skipped: [(line: Int, reason: String)] = []
    var line = 1
    while let row = reader.next() {
      line += 1
      if row == [""] { continue }
      do throws(RowError) {
        guard row.count == header.count else {
          throw RowError("has \(row.count) fields where the header has \(header.count)")
        }
        try handle { row[positions[$0]!] }
      } catch {
        guard skipMalformed else { throw .malformedRow(path: path, line: line, reason: error.message) }
        skipped.append((line, error.message))
      }
    }
    if let error = reader.error {
      throw .malformedRow(path: path, line: line + 1, reason: "is not valid CSV (\(error))")
    }
    return skipped
  }
}

/// Why one row cannot be read.
struct RowError: Error {
  let message: String

  init(_ message: String) {
    self.message = message
  }
}

/// A table the bench cannot read.
public enum AnalyticsTableError: Error, Hashable, Sendable, CustomStringConvertible {
  case unreadable(path: String)
  case missingColumn(path: String, column: String, role: String, found: [String])
  case malformedRow(path: String, line: Int, reason: String)
  case noDisplayedEvents(path: String)

  public var description: String {
    switch self {
    case .unreadable(let path):
      return "\(path): cannot be read: check that the file exists and is a CSV file with a header row"
    case .missingColumn(let path, let column, let role, let found):
      return "\(path): has no column '\(column)' (found: \(found.joined(separator: ", "))); "
        + "name the column that holds it with --column \(role)=NAME"
    case .malformedRow(let path, let line, let reason):
      return "\(path) line \(line): \(reason); fix the row or pass --skip-malformed to leave such rows out"
    case .noDisplayedEvents(let path):
      return "\(path): has no \"displayed\" events: the analysis counts devices by them"
    }
  }
}
