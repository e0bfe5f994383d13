import Foundation
import ScenarioFormat
import Testing

/// A metric's `winsorize`: read with the name its analysis goes by, and each
/// mistake docs/scenarios.md lists refused with its message.
@Suite struct WinsorizeFieldTests {
  @Test func winsorizeIsReadWithItsName() throws {
    let text = minimalScenario(
      extra: #", "metrics": [{ "name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 2, "baseline": 10, "winsorize": 0.995 }]"#)
    let metric = try parse(text).scenario.metrics[0]
    #expect(metric.winsorize == 0.995)
    #expect(Metric.winsorizedName(metric: metric.name, percentile: 0.995) == "revenue.w99.5")
    #expect(Metric.winsorizedName(metric: metric.name, percentile: 0.99) == "revenue.w99")
  }

  @Test func winsorizingAConversionOrBeyondItsRange() {
    let conversion = minimalScenario(
      extra: #", "metrics": [{ "name": "subscribed", "kind": "conversion", "baseline": 0.1, "winsorize": 0.99 }]"#)
    expectScenarioError(
      conversion, "metrics[0].winsorize: applies to continuous metrics only: a conversion is 0 or 1 and has no tail to cap")
    func winsorized(_ value: String) -> String {
      minimalScenario(
        extra: #", "metrics": [{ "name": "revenue", "kind": "continuous", "distribution": "lognormal", "sigma": 1, "baseline": 10, "winsorize": \#(value) }]"#)
    }
    expectScenarioError(winsorized("99"), "metrics[0].winsorize: must lie between 0.5 and 0.999, not 99")
    expectScenarioError(winsorized("0.2"), "metrics[0].winsorize: must lie between 0.5 and 0.999, not 0.2")
    expectScenarioError(winsorized("1"), "metrics[0].winsorize: must lie between 0.5 and 0.999, not 1")
  }
}
