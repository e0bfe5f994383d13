import Foundation

/// Reads an analytics tool's export row by row, as CSV (whose columns may
/// hold JSON text) or as JSON Lines, and hands each row to the reader as one
/// JSON value that `FieldPath`s resolve in: a JSON Lines row is its object;
/// a CSV row is an object of the columns the paths name, a column holding
/// JSON read as JSON where a path goes inside it. The file is streamed.
struct ExportReader {
  let path: String
  let format: ExportMapping.Format
  /// Paths every row's table must have: a CSV header lacking the column of one is refused.
  let required: [FieldPath]
  /// Paths read where the table has them.
  let optional: [FieldPath]

  /// - Returns: the rows skipped as malformed, with their line numbers and reasons.
  func read(
    skipMalformed: Bool, handle: (_ row: JSONValue, _ line: Int) throws(RowError) -> Void
  ) throws(AnalyticsTableError) -> [(line: Int, reason: String)] {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { throw .folder(path: path) }
    var skipped: [(line: Int, reason: String)] = []
    func handleRow(line: Int, _ read: () throws(RowError) -> JSONValue) throws(AnalyticsTableError) {
      do throws(RowError) {
        try handle(try read(), line)
      } catch {
        guard skipMalformed else { throw .malformedRow(path: path, line: line, reason: error.message) }
        skipped.append((line, error.message))
      }
    }
    switch format {
    case .jsonl:
      guard var reader = JSONLinesReader(path: path) else { throw .unreadable(path: path) }
      var bytes: [UInt8] = []
      while true {
        let more: Bool
        do {
          more = try reader.next(into: &bytes)
        } catch {
          throw .notATable(path: path, line: error.line, reason: error.reason)
        }
        guard more else { break }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        try handleRow(line: reader.line) { () throws(RowError) -> JSONValue in
          let row: JSONValue
          do throws(JSONSyntaxError) {
            row = try JSONValue.parse(bytes[...])
          } catch {
            throw RowError("is not JSON: at character \(error.column), \(error.reason)")
          }
          guard case .object = row else { throw RowError("is \(row.typeName), not a JSON object: each line of JSON Lines is one event") }
          return row
        }
      }
    case .csv:
      guard var reader = CSVRecordReader(path: path) else { throw .unreadable(path: path) }
      // The storage gathers a few thousand records before it is emptied, and
      // `last` is the record read last.
      var records = CSVRecordReader.Records()
      var last: Int { records.count - 1 }
      func next() throws(AnalyticsTableError) -> Bool {
        if records.count == 4096 { records.removeAll() }
        do {
          return try reader.next(into: &records)
        } catch {
          if error.endsTheTable { throw .notATable(path: path, line: error.line, reason: error.reason) }
          throw .malformedRow(path: path, line: error.line, reason: "is not valid CSV: \(error.reason)")
        }
      }
      guard try next() else { throw .unreadable(path: path) }
      let header = (0..<records.fieldCount(of: last)).map { String(decoding: records.field($0, of: last), as: UTF8.self) }
      // Each column the paths read, once, and whether a path goes inside it as JSON.
      var columns: [(name: String, position: Int, isJSON: Bool)] = []
      var missing: [MissingColumn] = []
      for (path, isRequired) in required.map({ ($0, true) }) + optional.map({ ($0, false) }) {
        let isJSON = path.steps.count > 1
        if let index = columns.firstIndex(where: { $0.name == path.head }) {
          columns[index].isJSON = columns[index].isJSON || isJSON
        } else if let position = header.firstIndex(of: path.head) {
          columns.append((path.head, position, isJSON))
        } else if isRequired, !missing.contains(where: { $0.column == path.head }) {
          missing.append(MissingColumn(column: path.head, role: nil))
        }
      }
      guard missing.isEmpty else { throw .missingColumns(path: path, missing: missing, found: header) }
      while try next() {
        if records.isBlank(last) { continue }
        try handleRow(line: records.line(of: last)) { () throws(RowError) -> JSONValue in
          guard records.fieldCount(of: last) == header.count else {
            throw RowError("has \(records.fieldCount(of: last)) fields where the header has \(header.count)")
          }
          var members: [(key: String, value: JSONValue)] = []
          for column in columns {
            let field = records.field(column.position, of: last)
            guard !field.isEmpty else {
              members.append((column.name, .null))
              continue
            }
            if column.isJSON, field.first == UInt8(ascii: "{") || field.first == UInt8(ascii: "[") {
              do throws(JSONSyntaxError) {
                members.append((column.name, try JSONValue.parse(field)))
              } catch {
                throw RowError("column \(column.name) is not JSON: at character \(error.column), \(error.reason)")
              }
            } else {
              guard let text = String(validating: field, as: UTF8.self) else {
                throw RowError("is not valid UTF-8: ids are compared as text, so save the table as UTF-8")
              }
              members.append((column.name, .string(text)))
            }
          }
          return .object(members)
        }
      }
    }
    return skipped
  }
}
