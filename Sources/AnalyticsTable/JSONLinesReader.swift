import Foundation

/// Reads a JSON Lines file (`.jsonl`, `.ndjson`) line by line from disk, a
/// chunk at a time, so that an export of any size is read in constant
/// memory. Lines end in LF or CR LF; a UTF-8 byte-order mark at the start is
/// skipped; the line buffer is reused.
struct JSONLinesReader {
  private static let chunkSize = 1 << 20

  private let file: FileHandle
  private var buffer: [UInt8] = []
  private var position = 0
  private var atEnd = false
  private var isFirstChunk = true
  /// The number of the line `next` returned last (from 1).
  private(set) var line = 0

  init?(path: String) {
    guard let file = FileHandle(forReadingAtPath: path) else { return nil }
    self.file = file
  }

  /// Reads the next line, without its line end, into `bytes`; false at the end of the file.
  mutating func next(into bytes: inout [UInt8]) throws(CSVRecordReader.SyntaxError) -> Bool {
    bytes.removeAll(keepingCapacity: true)
    if position == buffer.count, try !refill() { return false }
    line += 1
    while true {
      let found = buffer.withUnsafeBufferPointer { chunk -> Int? in
        var end = position
        while end < chunk.count, chunk[end] != UInt8(ascii: "\n") { end += 1 }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[position..<end]))
        return end < chunk.count ? end : nil
      }
      if bytes.count > CSVRecordReader.recordLimit {
        throw CSVRecordReader.SyntaxError(
          line: line, reason: "a line runs past \(CSVRecordReader.recordLimit >> 20) MB: this is not JSON Lines (check the file)",
          endsTheTable: true)
      }
      if let found {
        position = found + 1
        break
      }
      position = buffer.count
      guard try refill() else { break }
    }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    return true
  }

  /// Reads the next chunk; false at the end of the file.
  private mutating func refill() throws(CSVRecordReader.SyntaxError) -> Bool {
    guard !atEnd else { return false }
    let data: Data
    do {
      data = try file.read(upToCount: Self.chunkSize) ?? Data()
    } catch {
      throw CSVRecordReader.SyntaxError(
        line: line, reason: "cannot be read further (\(error.localizedDescription))", endsTheTable: true)
    }
    buffer = [UInt8](data)
    position = 0
    guard !buffer.isEmpty else {
      atEnd = true
      return false
    }
    if isFirstChunk {
      isFirstChunk = false
      if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
      if position == buffer.count { return try refill() }
    }
    return true
  }
}
