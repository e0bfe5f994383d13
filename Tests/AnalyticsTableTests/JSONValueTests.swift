import Foundation
import Testing

@testable import AnalyticsTable

/// The JSON reader of export rows, against Foundation's JSONSerialization
/// as the reference on random documents, and on the cases RFC 8259 settles.
@Suite struct JSONValueTests {
  private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try JSONValue.parse(Array(text.utf8)[...])
  }

  @Test func valuesReadAsWritten() throws {
    #expect(try parse(#" {"a": [1, -0.5e+3, true, null, "x"], "b": {}} "#) == .object([
      ("a", .array([.number("1"), .number("-0.5e+3"), .bool(true), .null, .string("x")])), ("b", .object([])),
    ]))
    // Escapes, a surrogate pair (an emoji) and raw UTF-8.
    #expect(try parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00ü""#) == .string("a\"\\/\u{8}\u{c}\n\r\té😀ü"))
    // An id written as a number keeps its digits.
    #expect(try parse("12345678901234567890").text == "12345678901234567890")
    // The first of a repeated member is the member.
    #expect(try parse(#"{"k": 1, "k": 2}"#)[member: "k"] == .number("1"))
  }

  @Test func textThatIsNotJSONSaysWhereAndWhy() {
    let cases: [(String, Int, String)] = [
      ("{\"a\": 1,}", 9, "expected a member's name in quotes"),
      ("[1 2]", 4, "expected ',' or ']' in an array"),
      ("{\"a\" 1}", 6, "expected ':' after \"a\""),
      ("01", 2, "unexpected text after the value"),
      ("-", 2, "a number has no digits"),
      ("1.", 3, "a number's fraction has no digits"),
      ("1e", 3, "a number's exponent has no digits"),
      ("\"abc", 5, "a string is not closed"),
      ("\"\\x\"", 4, "'\\x' is no JSON escape"),
      ("\"\\ud83d\"", 8, "a \\u escape holds half a surrogate pair"),
      ("\"\\ude00\"", 8, "a \\u escape holds half a surrogate pair"),
      ("\"a\tb\"", 3, "a string holds a control character: escape it"),
      ("tru", 1, "expected true"),
      ("{\"a\": [1}", 9, "expected ',' or ']' in an array"),
      ("", 1, "a value is missing"),
      ("+1", 1, "'+' cannot start a value"),
    ]
    for (text, column, reason) in cases {
      do {
        _ = try parse(text)
        Issue.record("\(text) parsed")
      } catch {
        #expect(error.column == column && error.reason == reason, "\(text): \(error.column) \(error.reason)")
      }
    }
    #expect(throws: JSONSyntaxError.self) { try JSONValue.parse([0x22, 0xFF, 0x22][...]) }
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: JSONSyntaxError.self) { try parse(deep) }
  }

  /// Random documents, written by JSONSerialization, read back as the values written.
  @Test func randomDocumentsWrittenByJSONSerializationReadBack() throws {
    var seeded = SplitMix(seed: 28)
    func value(_ depth: Int) -> Any {
      switch seeded.next() % (depth > 3 ? 4 : 6) {
      case 0: return Int(truncatingIfNeeded: seeded.next() >> 12) - (1 << 50)
      case 1: return String((0..<Int(seeded.next() % 8)).map { _ in Character(Unicode.Scalar(UInt32(seeded.next() % 0x3000 + 0x20))!) })
      case 2: return seeded.next() % 2 == 0
      case 3: return NSNull()
      case 4: return (0..<Int(seeded.next() % 4)).map { _ in value(depth + 1) }
      default: return Dictionary(uniqueKeysWithValues: (0..<Int(seeded.next() % 4)).map { ("k\($0)", value(depth + 1)) })
      }
    }
    func same(_ parsed: JSONValue, _ written: Any) -> Bool {
      switch (parsed, written) {
      case (.null, is NSNull): return true
      case (.bool(let flag), let value as Bool): return flag == value
      case (.number(let text), let value as Int): return Int(text) == value
      case (.string(let text), let string as String): return text == string
      case (.array(let values), let array as [Any]): return values.count == array.count && zip(values, array).allSatisfy(same)
      case (.object(let members), let dictionary as [String: Any]):
        return members.count == dictionary.count
          && members.allSatisfy { member in dictionary[member.key].map { same(member.value, $0) } ?? false }
      default: return false
      }
    }
    for _ in 0..<500 {
      let document: [String: Any] = ["row": value(0)]
      let data = try JSONSerialization.data(withJSONObject: document)
      let parsed = try JSONValue.parse([UInt8](data)[...])
      #expect(same(parsed, document), "\(String(decoding: data, as: UTF8.self))")
    }
  }
}

/// A small seeded generator, so the random documents are the same on every run.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
