import Foundation
import Testing

@testable import ScenarioFormat

/// `analysis.successMetrics` and `analysis.deteriorationAlpha`: the roles a
/// decision reads, with a clear error for each way to get them wrong, and
/// the warning for a lift written as a percentage.
@Suite struct MetricRoleFieldTests {
  private let metrics = #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1 }, "#
    + #"{ "name": "revenue", "kind": "continuous", "baseline": 2, "distribution": "gamma", "shape": 2 } ]"#

  @Test func successMetricsDefaultToEveryMetricThatIsNotAGuardrail() throws {
    let plain = try parse(minimalScenario(extra: metrics)).scenario.analysis
    #expect(plain.successMetrics == nil)
    #expect(plain.successMetrics(among: ["subscribed", "revenue"]) == ["subscribed", "revenue"])
    #expect(plain.deteriorationAlpha == 0.01)
    let guarded = try parse(minimalScenario(extra: metrics + #", "analysis": { "guardrails": { "revenue": 0.02 } }"#))
      .scenario.analysis
    #expect(guarded.successMetrics(among: ["subscribed", "revenue"]) == ["subscribed"])
  }

  @Test func namedSuccessMetricsKeepTheScenarioOrder() throws {
    let settings = try parse(minimalScenario(
      extra: metrics + #", "analysis": { "successMetrics": ["revenue", "subscribed"], "deteriorationAlpha": 0.001 }"#))
      .scenario.analysis
    #expect(settings.successMetrics(among: ["subscribed", "revenue"]) == ["subscribed", "revenue"])
    #expect(settings.deteriorationAlpha == 0.001)
    let one = try parse(minimalScenario(extra: metrics + #", "analysis": { "successMetrics": ["revenue"] }"#)).scenario.analysis
    #expect(one.successMetrics(among: ["subscribed", "revenue"]) == ["revenue"])
  }

  @Test func errorsNameTheFieldAndTheFix() {
    func expectError(_ analysis: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
      expectScenarioError(minimalScenario(extra: metrics + analysis), message, sourceLocation: sourceLocation)
    }
    expectError(
      #", "analysis": { "successMetrics": ["refunds"] }"#,
      "analysis.successMetrics[0]: 'refunds' is not a metric of the scenario (metrics: subscribed, revenue)")
    expectError(
      #", "analysis": { "guardrails": { "revenue": 0.02 }, "successMetrics": ["revenue"] }"#,
      "analysis.successMetrics[0]: 'revenue' is a guardrail: a metric is either a success metric (it must improve) or a "
        + "guardrail (it must not get worse); remove it from one of them")
    expectError(
      #", "analysis": { "successMetrics": ["revenue", "revenue"] }"#, "analysis.successMetrics[1]: 'revenue' is listed twice")
    expectError(
      #", "analysis": { "successMetrics": [] }"#,
      #"analysis.successMetrics: names no metric and the scenario has no guardrails, so nothing could decide a ship: name a success metric, e.g. ["subscribed"]"#)
    expectError(#", "analysis": { "successMetrics": "revenue" }"#, "analysis.successMetrics: must be an array, not a string")
    expectError(#", "analysis": { "deteriorationAlpha": 0.5 }"#, "analysis.deteriorationAlpha: must lie between 0 and 0.5, e.g. 0.01")
    expectError(#", "analysis": { "deteriorationAlpha": 0 }"#, "analysis.deteriorationAlpha: must lie between 0 and 0.5, e.g. 0.01")
  }

  /// Only guardrails: a ship needs every guardrail shown safe and nothing more.
  @Test func anEmptyListWithGuardrailsIsADoNoHarmDecision() throws {
    let settings = try parse(minimalScenario(
      extra: metrics + #", "analysis": { "guardrails": { "revenue": 0.02 }, "successMetrics": [] }"#)).scenario.analysis
    #expect(settings.successMetrics(among: ["subscribed", "revenue"]) == [])
  }

  /// A whole-number lift above +100% is most likely a percentage: it is
  /// accepted with a warning that says both readings.
  @Test func aLiftWrittenAsAPercentageWarns() throws {
    let lifted = #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": { "Theme": { "Red": 6 } } } ]"#
    let warnings = try parse(minimalScenario(extra: lifted)).warnings
    #expect(warnings.map(\.description) == ["metrics[0].lifts.Theme.Red: 6 means +600%; +6% is 0.06"])
    let fraction = #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": { "Theme": { "Red": 1.5 } } } ]"#
    #expect(try parse(minimalScenario(extra: fraction)).warnings.isEmpty)
  }
}
