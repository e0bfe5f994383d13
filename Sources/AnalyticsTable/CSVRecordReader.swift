import Foundation

/// Reads a CSV file (RFC 4180) record by record from disk, a chunk at a time,
/// so that a table of any size is read in constant memory.
///
/// Each record carries the physical line it starts on, which is what an
/// editor shows even when a quoted field spans lines. A UTF-8 byte-order mark
/// at the start is skipped. Fields are kept as bytes: the caller decides what
/// a field that is not UTF-8 means. Records are appended to a `Records`,
/// whose storage is reused, so reading a row allocates nothing once the
/// buffers have grown.
struct CSVRecordReader {
  /// Where a field's bytes start and end in its `Records`.
  struct Field {
    var start: Int
    var end: Int
  }

  /// Records one after another in flat storage: every record's bytes in one
  /// buffer and every field's bounds in another, so that a batch of thousands
  /// of records is a few buffers rather than a few per record, and a reader of
  /// the batch touches no reference count per row.
  struct Records {
    /// The records' bytes: a run of plain fields is copied from the file in
    /// one piece, commas and all, so fields need not be adjacent.
    private(set) var bytes: [UInt8] = []
    /// Field f is `bytes[fields[f].start ..< fields[f].end]`.
    private(set) var fields: [Field] = []
    /// Record r's fields are `firstFields[r] ..< firstFields[r + 1]`.
    private var firstFields: [Int] = [0]
    /// By record, the line it starts on (from 1).
    private var lines: [Int] = []
    /// By record, whether its bytes are all ASCII, as the reader saw while copying them.
    private var isASCII: [Bool] = []

    /// The number of records.
    var count: Int { lines.count }

    /// The line record `record` starts on.
    func line(of record: Int) -> Int { lines[record] }

    /// Where record `record`'s fields start in `fields`.
    func firstField(of record: Int) -> Int { firstFields[record] }

    /// The number of fields of record `record`.
    func fieldCount(of record: Int) -> Int { firstFields[record + 1] - firstFields[record] }

    /// Field `index` of record `record`.
    func field(_ index: Int, of record: Int) -> ArraySlice<UInt8> {
      precondition(index < fieldCount(of: record), "a record's field")
      let field = fields[firstFields[record] + index]
      return bytes[field.start..<field.end]
    }

    /// Lends field `index` of record `record` to `body`, valid only during the call.
    func withField<Result>(_ index: Int, of record: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
      precondition(index < fieldCount(of: record), "a record's field")
      let field = fields[firstFields[record] + index]
      return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[field.start..<field.end])) }
    }

    /// Whether record `record` is a blank line.
    func isBlank(_ record: Int) -> Bool {
      fieldCount(of: record) == 1 && fields[firstFields[record]].start == fields[firstFields[record]].end
    }

    /// Whether every field of record `record` is valid UTF-8: at once for
    /// ASCII, the usual case, known from the reading.
    func isUTF8(_ record: Int) -> Bool {
      isASCII[record]
        || (0..<fieldCount(of: record)).allSatisfy { String(validating: field($0, of: record), as: UTF8.self) != nil }
    }

    /// Lends the storage to `body`: the bytes and the fields' bounds, valid only during the call.
    func withUnsafeStorage<Result, Failure: Error>(
      _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ fields: UnsafeBufferPointer<Field>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      try bytes.withUnsafeBufferPointer { (bytes) throws(Failure) -> Result in
        try fields.withUnsafeBufferPointer { (fields) throws(Failure) -> Result in try body(bytes, fields) }
      }
    }

    /// Forgets every record, keeping the storage.
    mutating func removeAll() {
      bytes.removeAll(keepingCapacity: true)
      fields.removeAll(keepingCapacity: true)
      firstFields.removeAll(keepingCapacity: true)
      firstFields.append(0)
      lines.removeAll(keepingCapacity: true)
      isASCII.removeAll(keepingCapacity: true)
    }

    /// Ends the field that began at `start`, at `end` (by default where `bytes` now end).
    fileprivate mutating func endField(startingAt start: Int, at end: Int? = nil) {
      fields.append(Field(start: start, end: end ?? bytes.count))
    }

    fileprivate mutating func append(byte: UInt8) {
      bytes.append(byte)
    }

    fileprivate mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
      bytes.append(contentsOf: run)
    }

    /// Ends the record being read, which started on `line`; `high` is its bytes or'ed together, by eight.
    fileprivate mutating func endRecord(line: Int, high: UInt64) {
      firstFields.append(fields.count)
      lines.append(line)
      isASCII.append(high & 0x8080_8080_8080_8080 == 0)
    }

    /// Drops the unfinished record, whose bytes start at `start`.
    fileprivate mutating func dropUnfinished(bytesFrom start: Int) {
      bytes.removeSubrange(start...)
      fields.removeSubrange(firstFields[count]...)
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
  /// The chunk read last, reused: its first `filled` bytes are the file's.
  private var buffer: [UInt8] = []
  private var filled = 0
  private var position = 0
  private var atEnd = false
  private var line = 1
  private var isFirstChunk = true

  init?(path: String) {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    self.file = file
  }

  /// Reads the next record and appends it to `records`; false at the end of
  /// the file. A record that is not CSV leaves `records` as it was.
  mutating func next(into records: inout Records) throws(SyntaxError) -> Bool {
    let start = records.bytes.count
    do {
      return try scan(into: &records, startingAt: start)
    } catch {
      records.dropUnfinished(bytesFrom: start)
      throw error
    }
  }

  private mutating func scan(into records: inout Records, startingAt recordStart: Int) throws(SyntaxError) -> Bool {
    guard try peek() != nil else { return false }
    let firstLine = line
    var fieldStart = recordStart
    // The bytes copied, or'ed (with a few after them, which can only send a
    // record to the exact check): the record is ASCII when no top bit is set.
    var high: UInt64 = 0
    while true {
      // Plain fields straight from the chunk, up to a byte that needs more
      // care (a line end, a quote) or the chunk's end, copied in one piece.
      var end = position
      let filled = filled
      buffer.withUnsafeBufferPointer { chunk in
        let start = end, offset = records.bytes.count - start
        let raw = UnsafeRawBufferPointer(chunk)
        while true {
          // Every byte that needs care is at most ",", and letters, digits,
          // "." and "-" are above it. Eight bytes at a time, the lowest byte
          // below 0x2D sets the top bit of its place, exactly; the borrow
          // may set places above it, which are read again in the next word.
          let byte: UInt8
          if end + 8 <= filled {
            let word = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
            high |= word
            let below = (word &- 0x2D2D_2D2D_2D2D_2D2D) & ~word & 0x8080_8080_8080_8080
            guard below != 0 else {
              end += 8
              continue
            }
            end += below.trailingZeroBitCount >> 3
            byte = chunk[end]
          } else {
            guard end < filled else { break }
            byte = chunk[end]
            high |= UInt64(byte)
            if byte > UInt8(ascii: ",") {
              end += 1
              continue
            }
          }
          if byte == UInt8(ascii: ",") {
            records.endField(startingAt: fieldStart, at: offset + end)
            fieldStart = offset + end + 1
          } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\"") {
            break
          }
          end += 1
        }
        records.append(UnsafeBufferPointer(rebasing: chunk[start..<end]))
      }
      position = end
      if records.bytes.count - recordStart > Self.recordLimit { throw Self.tooLong(line: firstLine) }
      guard let byte = try peek() else {
        records.endField(startingAt: fieldStart)
        records.endRecord(line: firstLine, high: high)
        return true
      }
      position += 1
      switch byte {
      case UInt8(ascii: ","):
        records.endField(startingAt: fieldStart)
        fieldStart = records.bytes.count
      case UInt8(ascii: "\n"):
        line += 1
        records.endField(startingAt: fieldStart)
        records.endRecord(line: firstLine, high: high)
        return true
      case UInt8(ascii: "\r"):
        if try peek() == UInt8(ascii: "\n") { continue }
        records.append(byte: byte)
      case UInt8(ascii: "\""):
        if records.bytes.count == fieldStart {
          high |= UInt64(try quoted(into: &records, recordStart: recordStart))
        } else {
          records.append(byte: byte)
        }
      default:
        high |= UInt64(byte)
        records.append(byte: byte)
      }
    }
  }

  /// Reads a quoted field's content up to its closing quote; returns its bytes or'ed together.
  private mutating func quoted(into records: inout Records, recordStart: Int) throws(SyntaxError) -> UInt8 {
    let opened = line
    var high: UInt8 = 0
    while true {
      guard let byte = try peek() else {
        throw SyntaxError(line: opened, reason: "a quoted field is not closed: add the closing '\"'")
      }
      position += 1
      if byte == UInt8(ascii: "\n") { line += 1 }
      guard byte == UInt8(ascii: "\"") else {
        high |= byte
        records.append(byte: byte)
        if records.bytes.count - recordStart > Self.recordLimit { throw Self.tooLong(line: opened) }
        continue
      }
      guard try peek() == UInt8(ascii: "\"") else {
        if let after = try peek(), after != UInt8(ascii: ","), after != UInt8(ascii: "\n"), after != UInt8(ascii: "\r") {
          throw SyntaxError(line: line, reason: "text follows a quoted field's closing quote: double a quote inside a field (\"\")")
        }
        return high
      }
      position += 1
      records.append(byte: byte)
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
    position < filled ? buffer[position] : try refill()
  }

  /// The first byte of the next chunk, read from the file into the reused
  /// buffer, or nil at its end.
  private mutating func refill() throws(SyntaxError) -> UInt8? {
    guard !atEnd else { return nil }
    if buffer.isEmpty { buffer = Array(repeating: 0, count: Self.chunkSize) }
    // A chunk is filled whole unless the file ends, as a pipe may hand over fewer bytes a read.
    let descriptor = file.fileDescriptor
    filled = 0
    while filled < buffer.count {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
      if count == 0 { break }
      guard count > 0 else {
        if errno == EINTR { continue }
        throw SyntaxError(line: line, reason: "cannot be read further (\(String(cString: strerror(errno))))", endsTheTable: true)
      }
      filled += count
    }
    position = 0
    if filled == 0 {
      atEnd = true
      return nil
    }
    if isFirstChunk {
      isFirstChunk = false
      if filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { position = 3 }
      if position == filled { return try refill() }
    }
    return buffer[position]
  }
}
