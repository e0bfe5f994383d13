// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A vendor's "matches" operator, searched so that no pattern and attribute,
/// both of which come from outside, can hold `bench bucket` or the simulation:
/// a pattern `LinearPattern` reads is searched in time linear in the text;
/// any other (back references, look-around, Unicode properties), and a text
/// outside ASCII where the answer depends on ICU's Unicode tables, goes to
/// ICU (`NSRegularExpression`, a backtracking engine), which gives up as no
/// match beyond one progress report per character of the text (ICU reports
/// once per starting position of a plain scan) plus `backtrackingBudget`. A
/// count, not a clock, so the outcome is the same on every machine.
/// docs/decisions.md says per vendor where its SDK would answer otherwise.
struct RegularExpressionSearch: Sendable {
  /// The progress reports an ICU search may make beyond one per character.
  static let backtrackingBudget = 1_000

  private let expression: NSRegularExpression
  private let linear: LinearPattern?

  /// `pattern` compiled as the vendors' readers compile it, nil when ICU
  /// cannot compile it. Foundation refuses the empty pattern, which every
  /// text matches, so it is read as "(?:)".
  init?(_ pattern: String, caseInsensitive: Bool = false) {
    let spelled = pattern.isEmpty ? "(?:)" : pattern
    guard let expression = try? NSRegularExpression(pattern: spelled, options: caseInsensitive ? [.caseInsensitive] : [])
    else { return nil }
    self.expression = expression
    linear = LinearPattern(spelled, caseInsensitive: caseInsensitive)
  }

  /// Whether the pattern matches somewhere in `text`.
  func found(in text: String) -> Bool {
    if let answer = linear?.search(text) { return answer }
    return Self.foundWithinBudget(expression, in: text)
  }

  /// ICU's answer, or no match once the budget is spent.
  static func foundWithinBudget(_ expression: NSRegularExpression, in text: String) -> Bool {
    let range = NSRange(text.startIndex..., in: text)
    let budget = range.length + backtrackingBudget
    var found = false, reports = 0
    expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
      if result != nil {
        found = true
        stop.pointee = true
      } else {
        reports += 1
        if reports >= budget { stop.pointee = true }
      }
    }
    return found
  }
}
