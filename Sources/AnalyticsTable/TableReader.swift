import Foundation

/// The columns a reader of a table needs, as an enum whose raw values number
/// its cases from 0: a row's field is then found by position, where a lookup
/// by name compared strings at every field of every row.
protocol TableColumn: RawRepresentable<Int>, CaseIterable {
  /// The bench's name of the column, which `--column` may map to another.
  var name: String { get }
  /// Whether a table may lack the column; its fields then read as "".
  var isOptional: Bool { get }
}

/// One row of a table, read by column: a view of the batch of records it
/// came in, valid only while the row is handled, so that reading a field
/// copies nothing and touches no reference count.
struct TableRow<Column: TableColumn> {
  fileprivate let bytes: UnsafeBufferPointer<UInt8>
  /// The row's fields' bounds in `bytes`, from its first field.
  fileprivate let fields: UnsafePointer<CSVRecordReader.Field>
  /// By column, its position in the record, or −1 where the table lacks it.
  fileprivate let positions: UnsafeBufferPointer<Int>
  /// The number of the row's key (`TableReader.read`'s key column).
  let key: Int

  /// The field as text ("" for a column the table lacks).
  subscript(_ column: Column) -> String {
    String(decoding: bytes(column), as: UTF8.self)
  }

  /// The field's bytes, valid UTF-8 (empty for a column the table lacks):
  /// what the logs number without making a string. Valid only while the
  /// row is handled.
  func bytes(_ column: Column) -> UnsafeBufferPointer<UInt8> {
    let position = positions[column.rawValue]
    guard position >= 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(rebasing: bytes[fields[position].start..<fields[position].end])
  }

  /// Whether the field is `text`, compared as bytes without making a string.
  func field(_ column: Column, is text: StaticString) -> Bool {
    let field = bytes(column)
    guard field.count == text.utf8CodeUnitCount else { return false }
    guard !field.isEmpty else { return true }
    return memcmp(field.baseAddress!, text.utf8Start, field.count) == 0
  }

  /// Whether the field is empty or the table lacks the column.
  func isEmpty(_ column: Column) -> Bool {
    bytes(column).isEmpty
  }
}

/// Reads a CSV table whose header names its columns, finds the columns a
/// reader needs by name (or by the name an option maps them to), and hands
/// each row to the reader with its line number, streaming the file.
struct TableReader {
  let path: String
  /// The columns' names in this file, by the name the bench uses.
  let columns: [String: String]

  /// - Parameters:
  ///   - columnType: the enum of the columns the reader needs, each found
  ///     in the header by its name (or the name `columns` maps it to).
  ///   - key: the column whose texts `numbers` numbers (going on from the
  ///     numbers it holds), for every row in file order, malformed rows too,
  ///     on the thread that splits the rows: a row's handler reads the number
  ///     (`TableRow.key`) instead of looking the text up.
  ///   - handle: reads one row; throws a message for a malformed row.
  /// - Returns: the rows skipped as malformed, with their line numbers and reasons.
  func read<Column: TableColumn>(
    _ columnType: Column.Type, skipMalformed: Bool, key: Column, numbers: inout TextNumbers,
    handle: (_ row: TableRow<Column>) throws(RowError) -> Void
  ) throws(AnalyticsTableError) -> [(line: Int, reason: String)] {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { throw .folder(path: path) }
    guard var reader = CSVRecordReader(path: path) else { throw .unreadable(path: path) }
    var first = CSVRecordReader.Records()
    guard try next(&reader, into: &first) else { throw .unreadable(path: path) }
    guard let header = Self.text(first) else {
      throw .malformedRow(path: path, line: 1, reason: "the header is not valid UTF-8: save the table as UTF-8")
    }
    if header.contains(where: { $0.contains("\r") }) {
      throw .notATable(
        path: path, line: 1, reason: "its lines end in CR alone (old Mac text): save the table with LF or CR LF line ends")
    }
    var positions = Array(repeating: -1, count: columnType.allCases.count)
    var missing: [MissingColumn] = []
    for column in columnType.allCases {
      let fileName = columns[column.name] ?? column.name
      if let position = header.firstIndex(of: fileName) {
        positions[column.rawValue] = position
      } else if !column.isOptional {
        missing.append(MissingColumn(column: fileName, role: column.name))
      }
    }
    guard missing.isEmpty else { throw .missingColumns(path: path, missing: missing, found: header) }
    var skipped: [(line: Int, reason: String)] = []
    // The rest is split into records, and the keys numbered, on another thread while this one handles them.
    var lent = TextNumbers()
    swap(&lent, &numbers)
    let readAhead = RecordReadAhead(reader, keyPosition: positions[key.rawValue], numbers: lent)
    defer {
      readAhead.stop()
      numbers = readAhead.takeNumbers()
    }
    try positions.withUnsafeBufferPointer { (positions) throws(AnalyticsTableError) in
      while let batch = readAhead.next() {
        try batch.records.withUnsafeStorage { (bytes, fields) throws(AnalyticsTableError) in
          for index in 0..<batch.records.count {
            if batch.records.isBlank(index) { continue }
            do throws(RowError) {
              guard batch.records.fieldCount(of: index) == header.count else {
                throw RowError("has \(batch.records.fieldCount(of: index)) fields where the header has \(header.count)")
              }
              guard batch.isUTF8[index] else {
                throw RowError("is not valid UTF-8: ids are compared as text, so save the table as UTF-8")
              }
              try handle(TableRow(
                bytes: bytes, fields: fields.baseAddress! + batch.records.firstField(of: index), positions: positions,
                key: batch.keys[index]))
            } catch {
              let line = batch.records.line(of: index)
              guard skipMalformed else { throw .malformedRow(path: path, line: line, reason: error.message) }
              skipped.append((line, error.message))
            }
          }
        }
        if let error = batch.error {
          if error.endsTheTable { throw .notATable(path: path, line: error.line, reason: error.reason) }
          throw .malformedRow(path: path, line: error.line, reason: "is not valid CSV: \(error.reason)")
        }
        readAhead.recycle(batch)
      }
    }
    return skipped
  }

  private func next(
    _ reader: inout CSVRecordReader, into records: inout CSVRecordReader.Records
  ) throws(AnalyticsTableError) -> Bool {
    do {
      return try reader.next(into: &records)
    } catch {
      if error.endsTheTable { throw .notATable(path: path, line: error.line, reason: error.reason) }
      throw .malformedRow(path: path, line: error.line, reason: "is not valid CSV: \(error.reason)")
    }
  }

  /// The first record's fields as text, or nil when one is not valid UTF-8.
  private static func text(_ records: CSVRecordReader.Records) -> [String]? {
    var texts: [String] = []
    texts.reserveCapacity(records.fieldCount(of: 0))
    for index in 0..<records.fieldCount(of: 0) {
      guard let text = String(validating: records.field(index, of: 0), as: UTF8.self) else { return nil }
      texts.append(text)
    }
    return texts
  }
}

/// A column a reader needs that a header lacks: its name in the file and,
/// for the Lab table, the role `--column` maps.
public struct MissingColumn: Hashable, Sendable {
  public let column: String
  public let role: String?

  public init(column: String, role: String?) {
    self.column = column
    self.role = role
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
  case folder(path: String)
  /// The file cannot be read as rows from `line` on, so no row can be skipped past it.
  case notATable(path: String, line: Int, reason: String)
  /// Every column the reader needs and the header lacks, in one error.
  case missingColumns(path: String, missing: [MissingColumn], found: [String])
  /// Fields of a JSON Lines export that no row had, when nothing could be counted.
  case missingFields(path: String, fields: [String])
  /// A mapping whose exposure paths name no column of a CSV header or that asks for what the preset lacks.
  case unusableMapping(path: String, reason: String)
  case malformedRow(path: String, line: Int, reason: String)
  case noDisplayedEvents(path: String)
  /// An export in which the mapping finds no exposure, though every field it names is there.
  case noExposures(path: String, exposure: String)
  /// Timestamps spread over more days than a run may last.
  case spanTooLong(path: String, days: Int, limit: Int)
  /// A derived metric or covariate naming a metric the analysis lacks, or one of the wrong kind.
  case unknownMetric(option: String, metric: String, reason: String, known: [String])
  /// A `--split` that does not fit the table's experiment.
  case unknownSplit(experiment: String, reason: String)
  /// A baseline option naming an experiment or a variant the table lacks.
  case unknownBaseline(experiment: String, variant: String, known: [String], isExperiment: Bool)
  /// A name given on the command line that no row of the file has, with the names it does have.
  case unmatchedName(option: String, reason: String)
  /// Two names of one kind that Swift, like a reader, takes for the same
  /// (equal once Unicode-normalized) though their bytes differ.
  case ambiguousNames(kind: String, first: String, second: String)

  public var description: String {
    switch self {
    case .unreadable(let path):
      return "\(path): cannot be read: check that the file exists and is a CSV file with a header row"
    case .folder(let path):
      return "\(path): is a folder: name the CSV file of the table"
    case .notATable(let path, let line, let reason):
      return "\(path) line \(line): \(reason)"
    case .missingColumns(let path, let missing, let found):
      // A header that is no header (another file, a table of one long line) lists a few of its names.
      let shown = found.prefix(12).map { $0.count > 40 ? $0.prefix(40) + "…" : $0 }
      let more = found.count > shown.count ? " and \(found.count - shown.count) more" : ""
      let names = missing.map { "'\($0.column)'" }.joined(separator: ", ")
      let roles = missing.compactMap(\.role)
      let fix = roles.isEmpty
        ? "describe the file's columns with --map FILE.json (docs/analyze.md)"
        : (roles.count == 1 ? "name the column that holds it with " : "name the columns that hold them with ")
          + roles.map { "--column \($0)=NAME" }.joined(separator: " ")
      return "\(path): has no column\(missing.count == 1 ? "" : "s") \(names) (found: \(shown.joined(separator: ", "))\(more)); \(fix)"
    case .missingFields(let path, let fields):
      return "\(path): no row has \(fields.map { "'\($0)'" }.joined(separator: ", ")): "
        + "check --preset, or describe the file's fields with --map FILE.json (docs/analyze.md)"
    case .unusableMapping(let path, let reason):
      return "\(path): \(reason)"
    case .malformedRow(let path, let line, let reason):
      return "\(path) line \(line): \(reason); fix the row or pass --skip-malformed to leave such rows out"
    case .noDisplayedEvents(let path):
      return "\(path): has no \"displayed\" events: the analysis counts devices by them"
    case .noExposures(let path, let exposure):
      return "\(path): has no exposures to count: \(exposure); check --preset, or describe the file with --map FILE.json"
    case .spanTooLong(let path, let days, let limit):
      return "\(path): the events span \(days) days, more than the \(limit) a run may last: "
        + "check --time and --timezone, or pass --start to count from a later date"
    case .unknownMetric(let option, let metric, let reason, let known):
      return "\(option): '\(metric)' \(reason) (metrics: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
    case .unknownSplit(let experiment, let reason):
      return "--split \(experiment): \(reason)"
    case .unknownBaseline(let experiment, let variant, let known, let isExperiment):
      return isExperiment
        ? "--baseline \(experiment)=\(variant): '\(variant)' is not a variant of \(experiment) in the table (variants: \(known.joined(separator: ", ")))"
        : "--baseline \(experiment)=\(variant): '\(experiment)' is not an experiment of the table (experiments: \(known.joined(separator: ", ")))"
    case .unmatchedName(let option, let reason):
      return "\(option): \(reason)"
    case .ambiguousNames(let kind, let first, let second):
      func scalars(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(toLength: 4) }.joined(separator: " ")
      }
      return "the table's \(kind) '\(first)' (\(scalars(first))) and '\(second)' (\(scalars(second))) are the same name "
        + "written in two Unicode forms: write it the same way in every row (NFC, as most tools send it)"
    }
  }
}

extension String {
  fileprivate func leftPadded(toLength length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}
