import Simulation
import CSV
import Foundation
import Testing

/// The tables are written by `CSVLines`; CSV.swift, a widely used writer,
/// is the reference for the bytes of every field.
@Suite struct CSVLinesTests {
  private func reference(_ rows: [[String]]) throws -> [UInt8] {
    let stream = OutputStream.toMemory()
    let writer = try CSVWriter(stream: stream)
    for row in rows { try writer.write(row: row) }
    writer.stream.close()
    let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
    return Array(data) + [UInt8(ascii: "\n")]
  }

  @Test func randomFieldsAreWrittenAsCSVSwiftWritesThem() throws {
    var generator = SystemRandomNumberGenerator()
    let alphabet: [String] = ["a", "Z", "0", " ", ",", "\"", "\n", "\r", "\r\n", "é", "👍", "\t", ";", "'", "\u{0}"]
    for _ in 0..<300 {
      let rows = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
        (0..<Int.random(in: 1...5, using: &generator)).map { _ in
          (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
        }
      }
      var lines = CSVLines()
      for row in rows { lines.line(row) }
      #expect(lines.bytes == (try reference(rows)), "\(rows)")
      var fragments = CSVLines()
      for row in rows {
        let cut = Int.random(in: 1...row.count, using: &generator)
        fragments.append(CSVLines.Fragment(Array(row[..<cut])))
        if cut < row.count { fragments.append(CSVLines.Fragment(Array(row[cut...]))) }
        fragments.endLine()
      }
      #expect(fragments.bytes == lines.bytes, "a row written as fragments: \(rows)")
    }
  }

  @Test func integersArePrintedAsSwiftPrintsThem() {
    let values = [0, 7, -7, 10, 99, 100, 1_234_567, -1_000_000, Int.max, Int.min]
    var lines = CSVLines()
    for value in values { lines.field(value) }
    lines.endLine()
    #expect(String(decoding: lines.bytes, as: UTF8.self) == values.map(String.init).joined(separator: ",") + "\n")
  }

  /// An empty field is written as nothing between commas; a header is a first line.
  @Test func emptyFieldsAndHeaders() {
    var lines = CSVLines(header: ["a", "b,c"])
    lines.line(["", "b", ""])
    lines.field(3)
    lines.endLine()
    #expect(String(decoding: lines.bytes, as: UTF8.self) == "a,\"b,c\"\n,b,\n3\n")
  }
}
