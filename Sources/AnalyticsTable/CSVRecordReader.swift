import Foundation

/// Reads a CSV file (RFC 4180) record by record from disk, a chunk at a time,
/// so that a table of any size is read in constant memory.
///
/// Each record carries the physical line it starts on, which is what an
/// editor shows even when a quoted field spans lines. A UTF-8 byte-order mark
/// at the start is skipped. Fields are kept as bytes: the caller decides what
/// a field that is not UTF-8 means.
struct CSVRecordReader {
  /// One record: its fields' bytes and the line it starts on (from 1).
  struct Record {
    let line: Int
    let fields: [[UInt8]]
  }

  /// A record that does not follow RFC 4180.
  struct SyntaxError: Error {
    let line: Int
    let reason: String
  }

  private static let chunkSize = 1 << 20

  private let file: FileHandle
  private var buffer: [UInt8] = []
  private var position = 0
  private var atEnd = false
  private var line = 1
  private var isFirstChunk = true

  init?(path: String) {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    self.file = file
  }

  /// The next record, or nil at the end of the file.
  mutating func next() throws(SyntaxError) -> Record? {
    guard try peek() != nil else { return nil }
    let start = line
    var fields: [[UInt8]] = []
    var field: [UInt8] = []
    while true {
      guard let byte = try peek() else {
        fields.append(field)
        return Record(line: start, fields: fields)
      }
      position += 1
      switch byte {
      case UInt8(ascii: ","):
        fields.append(field)
        field = []
      case UInt8(ascii: "\n"):
        line += 1
        fields.append(field)
        return Record(line: start, fields: fields)
      case UInt8(ascii: "\r"):
        if try peek() == UInt8(ascii: "\n") { continue }
        field.append(byte)
      case UInt8(ascii: "\"") where field.isEmpty:
        try quoted(into: &field)
      default:
        field.append(byte)
      }
    }
  }

  /// Reads a quoted field's content up to its closing quote.
  private mutating func quoted(into field: inout [UInt8]) throws(SyntaxError) {
    let opened = line
    while true {
      guard let byte = try peek() else {
        throw SyntaxError(line: opened, reason: "a quoted field is not closed: add the closing '\"'")
      }
      position += 1
      if byte == UInt8(ascii: "\n") { line += 1 }
      guard byte == UInt8(ascii: "\"") else {
        field.append(byte)
        continue
      }
      guard try peek() == UInt8(ascii: "\"") else {
        if let after = try peek(), after != UInt8(ascii: ","), after != UInt8(ascii: "\n"), after != UInt8(ascii: "\r") {
          throw SyntaxError(line: line, reason: "text follows a quoted field's closing quote: double a quote inside a field (\"\")")
        }
        return
      }
      position += 1
      field.append(byte)
    }
  }

  /// The next byte without consuming it, reading the next chunk when needed.
  private mutating func peek() throws(SyntaxError) -> UInt8? {
    if position == buffer.count {
      guard !atEnd else { return nil }
      let data: Data
      do {
        data = try file.read(upToCount: Self.chunkSize) ?? Data()
      } catch {
        throw SyntaxError(line: line, reason: "cannot be read further (\(error.localizedDescription))")
      }
      buffer = [UInt8](data)
      position = 0
      if buffer.isEmpty {
        atEnd = true
        return nil
      }
      if isFirstChunk {
        isFirstChunk = false
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        if position == buffer.count { return try peek() }
      }
    }
    return buffer[position]
  }
}
