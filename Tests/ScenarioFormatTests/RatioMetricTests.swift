import Foundation
import ScenarioFormat
import Testing

/// The scenario's `ratios`: each is read with its two metrics, and each
/// mistake docs/scenarios.md lists is refused with its message.
@Suite struct RatioMetricTests {
  private let metrics = #", "metrics": [{ "name": "sessions", "kind": "continuous", "baseline": 3, "distribution": "gamma", "shape": 2 }, "#
    + #"{ "name": "revenue", "kind": "continuous", "baseline": 10, "distribution": "gamma", "shape": 4 }, "#
    + #"{ "name": "paid", "kind": "conversion", "baseline": 0 }]"#

  private func scenario(ratios: String) -> String {
    minimalScenario(extra: metrics + #", "ratios": \#(ratios)"#)
  }

  @Test func aRatioNamesItsNumeratorAndDenominator() throws {
    let parsed = try parse(scenario(ratios: #"[{ "name": "revenuePerSession", "numerator": "revenue", "denominator": "sessions" }]"#))
    #expect(parsed.scenario.ratios == [RatioMetric(name: "revenuePerSession", numerator: "revenue", denominator: "sessions")])
    #expect(try parse(minimalScenario(extra: metrics)).scenario.ratios.isEmpty)
  }

  @Test func aRatioOfAnUnknownMetric() {
    expectScenarioError(
      scenario(ratios: #"[{ "name": "revenuePerVisit", "numerator": "revenue", "denominator": "visits" }]"#),
      "ratios[0].denominator: 'visits' is not a metric of the scenario (metrics: sessions, revenue, paid)")
  }

  @Test func aRatioOfAMetricOverItself() {
    expectScenarioError(
      scenario(ratios: #"[{ "name": "one", "numerator": "revenue", "denominator": "revenue" }]"#),
      "ratios[0].denominator: must differ from the numerator: a metric over itself is 1")
  }

  @Test func aRatioNamedLikeAMetricOrAnotherRatio() {
    expectScenarioError(
      scenario(ratios: #"[{ "name": "revenue", "numerator": "revenue", "denominator": "sessions" }]"#),
      "ratios[0].name: 'revenue' is a metric's name already: a ratio needs a name of its own")
    let ratio = #"{ "name": "revenuePerSession", "numerator": "revenue", "denominator": "sessions" }"#
    expectScenarioError(
      scenario(ratios: "[\(ratio), \(ratio)]"), "ratios[1].name: 'revenuePerSession' is defined twice")
  }

  @Test func aRatioOverAMetricWhoseBaselineIsZero() {
    expectScenarioError(
      scenario(ratios: #"[{ "name": "revenuePerPayer", "numerator": "revenue", "denominator": "paid" }]"#),
      "ratios[0].denominator: 'paid' has a baseline of 0 in some segment: a ratio over it would divide by 0 there")
  }

  @Test func aRatioNameAgainstTheConvention() {
    expectScenarioError(
      scenario(ratios: #"[{ "name": "RevenuePerSession", "numerator": "revenue", "denominator": "sessions" }]"#),
      "ratios[0].name: must be lowerCamelCase, e.g. 'revenuePerSession'")
  }

  @Test func tooManyRatios() {
    let ratio = #"{ "name": "r", "numerator": "revenue", "denominator": "sessions" }"#
    expectScenarioError(
      scenario(ratios: "[" + Array(repeating: ratio, count: 65).joined(separator: ", ") + "]"),
      "ratios: lists 65 ratios; at most 64 are accepted")
  }
}
