import Foundation

/// Reads a CSV table whose header names its columns, finds the columns a
/// reader needs by name (or by the name an option maps them to), and hands
/// each row to the reader with its line number, streaming the file.
struct TableReader {
  let path: String
  /// The columns' names in this file, by the name the bench uses.
  let columns: [String: String]

  /// - Parameters:
  ///   - required: the bench's names of the columns the reader needs.
  ///   - optional: columns read when the table has them; absent, they read as "".
  ///   - handle: reads one row by the bench's column names; throws a message
  ///     for a malformed row.
  /// - Returns: the rows skipped as malformed, with their line numbers and reasons.
  func read(
    required: [String], optional: [String] = [], skipMalformed: Bool, handle: (_ field: (String) -> String) throws(RowError) -> Void
  ) throws(AnalyticsTableError) -> [(line: Int, reason: String)] {
    guard var reader = CSVRecordReader(path: path) else { throw .unreadable(path: path) }
    var record = CSVRecordReader.Record()
    guard try next(&reader, into: &record) else { throw .unreadable(path: path) }
    guard let header = Self.text(record) else {
      throw .malformedRow(path: path, line: 1, reason: "the header is not valid UTF-8: save the table as UTF-8")
    }
    // The columns by the bench's names, looked up by name on every field a row
    // reads: a handful of short names, compared faster than they hash.
    var names: [String] = []
    var positions: [Int?] = []
    for name in required {
      let fileName = columns[name] ?? name
      guard let position = header.firstIndex(of: fileName) else {
        throw .missingColumn(path: path, column: fileName, role: name, found: header)
      }
      names.append(name)
      positions.append(position)
    }
    for name in optional {
      names.append(name)
      positions.append(header.firstIndex(of: columns[name] ?? name))
    }
    var skipped: [(line: Int, reason: String)] = []
    while try next(&reader, into: &record) {
      if record.isBlank { continue }
      do throws(RowError) {
        guard record.count == header.count else {
          throw RowError("has \(record.count) fields where the header has \(header.count)")
        }
        guard Self.isUTF8(record) else {
          throw RowError("is not valid UTF-8: ids are compared as text, so save the table as UTF-8")
        }
        try handle { name in
          guard let index = names.firstIndex(of: name), let position = positions[index] else { return "" }
          return String(decoding: record.field(position), as: UTF8.self)
        }
      } catch {
        guard skipMalformed else { throw .malformedRow(path: path, line: record.line, reason: error.message) }
        skipped.append((record.line, error.message))
      }
    }
    return skipped
  }

  private func next(_ reader: inout CSVRecordReader, into record: inout CSVRecordReader.Record) throws(AnalyticsTableError) -> Bool {
    do {
      return try reader.next(into: &record)
    } catch {
      throw .malformedRow(path: path, line: error.line, reason: "is not valid CSV: \(error.reason)")
    }
  }

  /// Whether every field is valid UTF-8; ASCII, the usual case, is checked a word at a time.
  private static func isUTF8(_ record: CSVRecordReader.Record) -> Bool {
    let isASCII = record.bytes.withUnsafeBytes { raw -> Bool in
      var index = 0
      var high: UInt64 = 0
      while index + 8 <= raw.count {
        high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
      }
      while index < raw.count {
        high |= UInt64(raw[index])
        index += 1
      }
      return high & 0x8080_8080_8080_8080 == 0
    }
    return isASCII || (0..<record.count).allSatisfy { String(validating: record.field($0), as: UTF8.self) != nil }
  }

  /// The fields as text, or nil when one is not valid UTF-8.
  private static func text(_ record: CSVRecordReader.Record) -> [String]? {
    var texts: [String] = []
    texts.reserveCapacity(record.count)
    for index in 0..<record.count {
      guard let text = String(validating: record.field(index), as: UTF8.self) else { return nil }
      texts.append(text)
    }
    return texts
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
  /// Timestamps spread over more days than a run may last.
  case spanTooLong(path: String, days: Int, limit: Int)
  /// A baseline option naming an experiment or a variant the table lacks.
  case unknownBaseline(experiment: String, variant: String, known: [String], isExperiment: Bool)

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
    case .spanTooLong(let path, let days, let limit):
      return "\(path): the events span \(days) days, more than the \(limit) a run may last: "
        + "check --time and --timezone, or pass --start to count from a later date"
    case .unknownBaseline(let experiment, let variant, let known, let isExperiment):
      return isExperiment
        ? "--baseline \(experiment)=\(variant): '\(variant)' is not a variant of \(experiment) in the table (variants: \(known.joined(separator: ", ")))"
        : "--baseline \(experiment)=\(variant): '\(experiment)' is not an experiment of the table (experiments: \(known.joined(separator: ", ")))"
    }
  }
}
