import Foundation

/// Reads a CSV file (RFC 4180) record by record from disk, a chunk at a time,
/// so that a table of any size is read in constant memory.
///
/// Each record carries the physical line it starts on, which is what an
/// editor shows even when a quoted field spans lines. A UTF-8 byte-order mark
/// at the start is skipped. Fields are kept as bytes: the caller decides what
/// a field that is not UTF-8 means. The reader reuses one buffer for every
/// record, so reading a row allocates nothing once the buffers have grown.
struct CSVRecordReader {
  /// One record: its fields' bytes, and where each starts and ends. A run
  /// of plain fields is copied from the file in one piece, commas and all,
  /// so fields need not be adjacent.
  struct Record {
    /// The line it starts on (from 1).
    var line = 0
    var bytes: [UInt8] = []
    /// The number of fields: field i < count is `bytes[starts[i] ..< ends[i]]`.
    /// The arrays keep the entries of earlier, longer records, so that a
    /// record overwrites them rather than emptying the arrays first.
    private(set) var count = 0
    private var starts: [Int] = []
    private var ends: [Int] = []

    func field(_ index: Int) -> ArraySlice<UInt8> {
      precondition(index < count, "a record's field")
      return bytes[starts[index]..<ends[index]]
    }

    /// Ends the field that began at `start`, at `end` (by default where `bytes` now end).
    fileprivate mutating func endField(startingAt start: Int, at end: Int? = nil) {
      if count < starts.count {
        starts[count] = start
        ends[count] = end ?? bytes.count
      } else {
        starts.append(start)
        ends.append(end ?? bytes.count)
      }
      count += 1
    }

    /// Forgets the fields and bytes, keeping the storage.
    fileprivate mutating func clear() {
      bytes.removeAll(keepingCapacity: true)
      count = 0
    }

    /// Whether the record is a blank line.
    var isBlank: Bool { count == 1 && bytes.isEmpty }

    /// Whether every field is valid UTF-8; ASCII, the usual case, is checked a word at a time.
    var isUTF8: Bool {
      let isASCII = bytes.withUnsafeBytes { raw -> Bool in
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
      return isASCII || (0..<count).allSatisfy { String(validating: field($0), as: UTF8.self) != nil }
    }
  }

  /// A record that does not follow RFC 4180.
  struct SyntaxError: Error {
    let line: Int
    let reason: String
    /// Whether the rest of the file cannot be read as rows, so that skipping
    /// the row does not help.
    var endsTheTable = false
  }

  private static let chunkSize = 1 << 20
  /// The longest record read: far beyond any row of events or outcomes, so
  /// that a file of one endless line (`/dev/zero`, a binary) is an error
  /// rather than a record that grows until memory runs out.
  static let recordLimit = 16 << 20

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

  /// Reads the next record into `record`; false at the end of the file.
  mutating func next(into record: inout Record) throws(SyntaxError) -> Bool {
    guard try peek() != nil else { return false }
    record.line = line
    record.clear()
    var fieldStart = 0
    while true {
      // Plain fields straight from the chunk, up to a byte that needs more
      // care (a line end, a quote) or the chunk's end, copied in one piece.
      var end = position
      buffer.withUnsafeBufferPointer { chunk in
        let start = end, offset = record.bytes.count - start
        while end < chunk.count {
          let byte = chunk[end]
          if byte == UInt8(ascii: ",") {
            record.endField(startingAt: fieldStart, at: offset + end)
            fieldStart = offset + end + 1
          } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\"") {
            break
          }
          end += 1
        }
        record.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
      }
      position = end
      if record.bytes.count > Self.recordLimit { throw Self.tooLong(line: record.line) }
      guard let byte = try peek() else {
        record.endField(startingAt: fieldStart)
        return true
      }
      position += 1
      switch byte {
      case UInt8(ascii: ","):
        record.endField(startingAt: fieldStart)
        fieldStart = record.bytes.count
      case UInt8(ascii: "\n"):
        line += 1
        record.endField(startingAt: fieldStart)
        return true
      case UInt8(ascii: "\r"):
        if try peek() == UInt8(ascii: "\n") { continue }
        record.bytes.append(byte)
      case UInt8(ascii: "\""):
        if record.bytes.count == fieldStart {
          try quoted(into: &record.bytes)
        } else {
          record.bytes.append(byte)
        }
      default:
        record.bytes.append(byte)
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
        if field.count > Self.recordLimit { throw Self.tooLong(line: opened) }
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

  private static func tooLong(line: Int) -> SyntaxError {
    SyntaxError(
      line: line, reason: "a record runs past \(recordLimit >> 20) MB: this is not a table of rows (check the file)",
      endsTheTable: true)
  }

  /// The next byte without consuming it, reading the next chunk when needed.
  @inline(__always)
  private mutating func peek() throws(SyntaxError) -> UInt8? {
    position < buffer.count ? buffer[position] : try refill()
  }

  /// The first byte of the next chunk, read from the file, or nil at its end.
  private mutating func refill() throws(SyntaxError) -> UInt8? {
    guard !atEnd else { return nil }
    let data: Data
    do {
      data = try file.read(upToCount: Self.chunkSize) ?? Data()
    } catch {
      throw SyntaxError(line: line, reason: "cannot be read further (\(error.localizedDescription))", endsTheTable: true)
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
      if position == buffer.count { return try refill() }
    }
    return buffer[position]
  }
}
