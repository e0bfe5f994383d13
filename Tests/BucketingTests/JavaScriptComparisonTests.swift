import Foundation
import Testing

@testable import Bucketing

/// GrowthBook's relational operators order values as JavaScript does (the
/// SDK suite's `comparing numbers and strings` and `[D1]` cases); here
/// against what Node.js itself answers (scripts/make_javascript_fixtures.py):
/// `Number(text)` on 50 texts, and `<`, `<=`, `>`, `>=` on every pair of 23
/// values (null, booleans, numbers, numeric and other strings, astral text).
@Suite struct JavaScriptComparisonTests {
  private struct Fixtures: Decodable {
    struct Number: Decodable { let text: String; let value: AttributeValue }
    struct Comparison: Decodable { let a: AttributeValue; let b: AttributeValue; let lt, lte, gt, gte: Bool }
    let node: String
    let numbers: [Number]
    let comparisons: [Comparison]
  }

  private func fixtures() throws -> Fixtures {
    try VendorFixtures.load("javascript", as: Fixtures.self)
  }

  @Test func numberReadsTextAsJavaScriptDoes() throws {
    let numbers = try fixtures().numbers
    #expect(numbers.count == 50)
    for number in numbers {
      let parsed = JavaScriptNumber.parse(number.text)
      switch number.value {
      case .string("NaN"): #expect(parsed.isNaN, "\(number.text.debugDescription)")
      case .string("Infinity"): #expect(parsed == .infinity, "\(number.text.debugDescription)")
      case .string("-Infinity"): #expect(parsed == -.infinity, "\(number.text.debugDescription)")
      case .number(let value): #expect(parsed == value, "\(number.text.debugDescription)")
      default: Issue.record("an unexpected fixture value for \(number.text.debugDescription)")
      }
    }
  }

  /// Through the conditions themselves: a null `a` is the attribute left
  /// out, which the SDK reads as null.
  @Test func relationalOperatorsOrderAsJavaScriptDoes() throws {
    let comparisons = try fixtures().comparisons
    #expect(comparisons.count == 23 * 23)
    for comparison in comparisons {
      let attributes: [String: AttributeValue] = comparison.a == .null ? [:] : ["x": comparison.a]
      for (name, expected) in [("$lt", comparison.lt), ("$lte", comparison.lte), ("$gt", comparison.gt), ("$gte", comparison.gte)] {
        let condition = AttributeValue.object(["x": .object([name: comparison.b])])
        #expect(
          GrowthBookCondition.evaluate(condition, attributes: attributes) == expected,
          "\(comparison.a) \(name) \(comparison.b)")
      }
    }
  }
}
