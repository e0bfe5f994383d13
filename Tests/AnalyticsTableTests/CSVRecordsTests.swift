import Foundation
import Testing

@testable import AnalyticsTable

/// The records of a batch share flat storage: each keeps its own fields,
/// line and UTF-8 verdict however many come before it, and a record that
/// is not CSV leaves the batch as it was.
@Suite struct CSVRecordsTests {
  private func readAll(_ text: [UInt8]) throws -> (CSVRecordReader.Records, error: CSVRecordReader.SyntaxError?) {
    let path = try temporaryFile("r.csv", "")
    try Data(text).write(to: URL(fileURLWithPath: path))
    var reader = try #require(CSVRecordReader(path: path))
    var records = CSVRecordReader.Records()
    do {
      while try reader.next(into: &records) {}
      return (records, nil)
    } catch {
      return (records, error)
    }
  }

  private func fields(_ records: CSVRecordReader.Records, _ record: Int) -> [String] {
    (0..<records.fieldCount(of: record)).map { String(decoding: records.field($0, of: record), as: UTF8.self) }
  }

  @Test func everyRecordKeepsItsFieldsLineAndEncoding() throws {
    let text = Array("a,b,c\r\n\"x, \"\"y\"\"\nz\",,caf".utf8) + [0xC3, 0xA9] + Array("\n\nlone\rcr,\"\"\nbad,".utf8) + [0xFF] + Array("\nlast".utf8)
    let (records, error) = try readAll(text)
    #expect(error == nil)
    #expect(records.count == 6)
    #expect(fields(records, 0) == ["a", "b", "c"])
    #expect(fields(records, 1) == ["x, \"y\"\nz", "", "café"])
    #expect(fields(records, 2) == [""])
    #expect(fields(records, 3) == ["lone\rcr", ""])
    #expect(fields(records, 5) == ["last"])
    #expect((0..<6).map(records.line(of:)) == [1, 2, 4, 5, 6, 7])
    #expect((0..<6).map(records.isBlank) == [false, false, true, false, false, false])
    #expect((0..<6).map(records.isUTF8) == [true, true, true, true, false, true])
    #expect(records.fieldCount(of: 4) == 2)
    let lent = records.withField(2, of: 1) { Array($0) }
    #expect(lent == Array("café".utf8))
  }

  @Test func aRecordThatIsNotCSVLeavesTheBatchAsItWas() throws {
    let (records, error) = try readAll(Array("a,b\nc,d\n\"e,f\ng,h\n".utf8))
    #expect(error?.line == 3)
    #expect(records.count == 2)
    #expect(fields(records, 1) == ["c", "d"])
    var emptied = records
    emptied.removeAll()
    #expect(emptied.count == 0)
  }
}

/// An amount read from a field's bytes in place is the amount read from its text, and fails as the text does.
@Suite struct AmountTests {
  @Test func anAmountFromBytesIsTheAmountFromText() throws {
    let texts = [
      "0", "0.0", "1.0", "-0", "1.2271276107057935", "123456789012345678901234567890", "1e3", "-.5", "+2.", "7E-1",
      "0.1", "2.2250738585072014e-308", "4.9e-324", "1e-400", "999999999999999.9", "1e15", "1.0000000000000002e15",
      String(repeating: "3", count: 70), "0." + String(repeating: "1", count: 80), "1e16", "0x1p10", "inf", "nan", "", "1,5", " 1",
    ]
    for text in texts {
      let bytes = Array(text.utf8)
      let fromBytes = Result { () throws(RowError) in try bytes.withUnsafeBufferPointer { (field) throws(RowError) in try EventsAnalysis.amount(field, of: "value") } }
      let fromText = Result { () throws(RowError) in try EventsAnalysis.amount(text, of: "value") }
      switch (fromBytes, fromText) {
      case (.success(let a), .success(let b)): #expect(a.bitPattern == b.bitPattern, "\(text)")
      case (.failure(let a), .failure(let b)): #expect(a.message == b.message, "\(text)")
      default: Issue.record("'\(text)': \(fromBytes) from bytes, \(fromText) from text")
      }
    }
  }
}
