@testable import Bucketing
import Foundation
import Testing

/// The linear matcher answers as ICU (`NSRegularExpression`, the engine it
/// replaces) does on every pattern it accepts: random patterns over the
/// constructs it reads, against random texts with line terminators, case and
/// characters outside ASCII, each asked of both.
@Suite struct LinearPatternTests {
  /// SplitMix64, so that the cases are the same on every run.
  struct Draws {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
  }

  static let atoms = [
    "a", "b", "A", "_", "1", "-", " ", ".", "[ab]", "[^a]", "[a-c]", "[A-Z0-9]", "[\\-x]", "\\d", "\\w", "\\s", "\\D", "\\W",
    "\\S", "\\b", "\\B", "^", "$", "\\A", "\\z", "\\Z", "\\n", "\\r", "\\x41", "\\u00e9", "\\.", "é", "[é-ü]",
  ]
  static let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?", "{1,3}?"]
  static let textScalars = ["a", "b", "A", "B", "_", "1", "-", " ", "\n", "\r", "\u{0B}", "\u{85}", "\u{2028}", "é", "É", "x", "."]

  static func pattern(_ draws: inout Draws, depth: Int = 0) -> String {
    var items: [String] = []
    for _ in 0..<(1 + draws.next(4)) {
      let atom: String
      if depth < 2 && draws.next(5) == 0 {
        atom = "(" + (draws.next(2) == 0 ? "?:" : "") + pattern(&draws, depth: depth + 1) + ")"
      } else {
        atom = draws.pick(atoms)
      }
      // An assertion is never quantified: a quantifier over what can match nothing is left to ICU.
      let quantifier = ["^", "$", "\\A", "\\z", "\\Z", "\\b", "\\B"].contains(atom) ? "" : draws.pick(quantifiers)
      items.append(atom + quantifier)
    }
    let sequence = items.joined()
    return draws.next(4) == 0 ? sequence + "|" + pattern(&draws, depth: depth + 1) : sequence
  }

  @Test func answersAsICUOnRandomPatternsAndTexts() throws {
    var draws = Draws(state: 20_261_128)
    var compared = 0, matched = 0, mismatches: [String] = []
    for _ in 0..<6_000 {
      let pattern = Self.pattern(&draws)
      let caseInsensitive = draws.next(3) == 0
      let icu = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
      guard let linear = LinearPattern(pattern, caseInsensitive: caseInsensitive) else { continue }
      for _ in 0..<8 {
        let text = (0..<draws.next(9)).map { _ in draws.pick(Self.textScalars) }.joined()
        guard let answer = linear.search(text) else { continue }
        let expected = icu.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        compared += 1
        if expected { matched += 1 }
        if answer != expected {
          mismatches.append("\(pattern.debugDescription)\(caseInsensitive ? " (i)" : "") on \(text.debugDescription): ICU \(expected)")
        }
      }
    }
    #expect(compared > 20_000)
    #expect(matched > compared / 4 && matched < compared * 3 / 4)
    #expect(mismatches.isEmpty, "\(mismatches.count) of \(compared), e.g. \(mismatches.prefix(8).joined(separator: "; "))")
  }

  /// Ends of text and of lines, and word boundaries, where ICU's rules are finest.
  @Test func endsAndBoundariesAsICU() throws {
    let texts = [
      "a", "a\n", "a\r\n", "a\r", "a\n\n", "a\r\n\n", "a\n\r", "a\u{85}", "a\u{2028}", "a\u{2029}", "a\u{0B}", "a\u{0C}",
      "\na", "ab", "a b", "_a", "1a", "a_", "", "\r\n",
    ]
    for pattern in ["a$", "a\\Z", "a\\z", "^a", "\\Aa", "\\ba\\b", "a\\B", "\\Ba", "a.", "a.$", "a\\s$", "^$", "\\r$", "\\n$", "\\r\\n$"] {
      let icu = try NSRegularExpression(pattern: pattern)
      let linear = try #require(LinearPattern(pattern, caseInsensitive: false))
      for text in texts {
        // \b and \s on a text outside ASCII are ICU's (the last test).
        guard let answer = linear.search(text) else { continue }
        let expected = icu.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        #expect(answer == expected, "\(pattern) on \(text.debugDescription)")
      }
    }
  }

  /// What it does not reproduce is left to ICU, not guessed.
  @Test func constructsOutsideTheSubsetAreLeftToICU() {
    for pattern in [
      "(a)\\1", "a(?=b)", "a(?!b)", "(?<=a)b", "(?i)a", "(?<name>a)", "\\p{L}", "[[a-z]&&[^b]]", "[[:alpha:]]", "a*+", "a**",
      "\\Qa\\E", "a{", "a{2,1}", "(a*)+", "(?:$)?", "(a|)*", "]", "}", "[a-]", "[]a]", "\\e", "[a b]", "(a", "a)",
      String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100), "a{5000}",
    ] {
      #expect(LinearPattern(pattern, caseInsensitive: false) == nil, "\(pattern)")
    }
    #expect(LinearPattern("é", caseInsensitive: true) == nil)
    #expect(LinearPattern("[^a]", caseInsensitive: true) == nil)
    // A text outside ASCII where \w or case folding would need ICU's tables.
    #expect(LinearPattern("\\w", caseInsensitive: false)?.search("é") == nil)
    #expect(LinearPattern("a", caseInsensitive: true)?.search("é") == nil)
    #expect(LinearPattern(".", caseInsensitive: false)?.search("é") == true)
  }
}
