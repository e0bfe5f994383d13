import Foundation
import ScenarioFormat
import Testing

/// A metric's `quantiles`: read in order, and each mistake docs/scenarios.md
/// lists refused with its message.
@Suite struct QuantileFieldTests {
  private func scenario(kind: String = #""kind": "continuous", "distribution": "gamma", "shape": 2"#, quantiles: String) -> String {
    minimalScenario(extra: #", "metrics": [{ "name": "revenue", \#(kind), "baseline": 10, "quantiles": \#(quantiles) }]"#)
  }

  @Test func quantilesAreReadInOrderWithTheirNames() throws {
    let metric = try parse(scenario(quantiles: "[0.9, 0.5, 0.975]")).scenario.metrics[0]
    #expect(metric.quantiles == [0.9, 0.5, 0.975])
    #expect(metric.quantiles.map { Metric.quantileName(metric: metric.name, quantile: $0) } == ["revenue.p90", "revenue.p50", "revenue.p97.5"])
  }

  @Test func quantilesOfAConversion() {
    expectScenarioError(
      scenario(kind: #""kind": "conversion""#, quantiles: "[0.5]").replacingOccurrences(of: #""baseline": 10"#, with: #""baseline": 0.1"#),
      "metrics[0].quantiles: applies to continuous metrics only: every quantile of a conversion is 0 or 1")
  }

  @Test func aQuantileOutsideItsRangeOrListedTwice() {
    expectScenarioError(scenario(quantiles: "[0.5, 1]"), "metrics[0].quantiles[1]: must lie between 0.01 and 0.99, not 1")
    expectScenarioError(scenario(quantiles: "[50]"), "metrics[0].quantiles[0]: must lie between 0.01 and 0.99, not 50")
    expectScenarioError(
      scenario(quantiles: "[0.5, 0.9, 0.5]"), "metrics[0].quantiles[2]: 'revenue.p50' is listed twice: give each quantile once")
    expectScenarioError(scenario(quantiles: "[]"), "metrics[0].quantiles: must list at least one quantile")
    expectScenarioError(
      scenario(quantiles: "[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]"),
      "metrics[0].quantiles: lists 9 quantiles; at most 8 are accepted")
  }
}
