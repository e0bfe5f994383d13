import Testing

@testable import Bucketing

/// The "contains" operators' search, against the naive definition on every
/// short text and part over a two-letter alphabet, and on the input that made
/// the naive search take hours.
@Suite struct SubsequenceSearchTests {
  private func naive(_ text: [UInt8], _ part: [UInt8]) -> Bool {
    part.isEmpty || (part.count <= text.count && (0...(text.count - part.count)).contains { Array(text[$0..<$0 + part.count]) == part })
  }

  /// Every text and part of up to 9 and 5 letters of "ab": 1,023 × 63 pairs.
  @Test func itAgreesWithTheDefinitionOnEveryShortPair() {
    func all(upTo length: Int) -> [[UInt8]] {
      (0...length).flatMap { count in
        (0..<(1 << count)).map { bits in (0..<count).map { UInt8(ascii: (bits >> $0) & 1 == 0 ? "a" : "b") } }
      }
    }
    let parts = all(upTo: 5)
    for text in all(upTo: 9) {
      for part in parts {
        #expect(SubsequenceSearch.contains(text, part) == naive(text, part), "\(text) \(part)")
      }
    }
  }

  /// 500,000 "a"s then "b" in a million "a"s: absent, and found once the text ends with it.
  @Test func aLongPartInALongTextIsFoundOrNot() {
    let part = [UInt8](repeating: UInt8(ascii: "a"), count: 500_000) + [UInt8(ascii: "b")]
    var text = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(!SubsequenceSearch.contains(text, part))
    text.append(UInt8(ascii: "b"))
    #expect(SubsequenceSearch.contains(text, part))
    #expect(SubsequenceSearch.contains(Array("naïve café".unicodeScalars), Array("é".unicodeScalars)))
    #expect(!SubsequenceSearch.contains(Array("cafe\u{301}".unicodeScalars), Array("é".unicodeScalars)))
  }
}
