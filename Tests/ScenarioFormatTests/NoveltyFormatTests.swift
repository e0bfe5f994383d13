import Foundation
import ScenarioFormat
import Testing

/// A metric's `novelty` (docs/rules/NoveltyEffects.md): read, and each
/// mistake refused by field with the fix.
@Suite struct NoveltyFormatTests {
  private func metrics(_ text: String) -> String {
    minimalScenario(extra: #", "metrics": [\#(text)]"#)
  }

  @Test func noveltyIsReadBesideTheSettledLifts() throws {
    let text = metrics(
      #"{"name": "converted", "kind": "conversion", "baseline": 0.2, "lifts": {"Theme": {"Red": -0.05}}, "#
        + #""novelty": {"Theme": {"initialLifts": {"Red": 0.15}, "halfLifeDays": 5}}}"#)
    let metric = try parse(text).scenario.metrics[0]
    #expect(metric.novelty == ["Theme": Novelty(initialLifts: ["Red": 0.15], halfLifeDays: 5)])
    #expect(metric.lift(of: "Red", in: "Theme", segment: "everyone") == -0.05)
    #expect(metric.initialLift(of: "Red", in: "Theme", segment: "everyone") == 0.15)
    // A variant without an initial lift starts where it settles.
    #expect(metric.initialLift(of: "Blue", in: "Theme", segment: "everyone") == 0)
  }

  /// The largest mean an amount can reach counts the initial lifts too.
  @Test func anInitialLiftCountsTowardsTheLargestMean() {
    let text = metrics(
      #"{"name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 2, "baseline": 1e14, "#
        + #""novelty": {"Theme": {"initialLifts": {"Red": 10}, "halfLifeDays": 5}}}"#)
    expectScenarioError(
      text,
      "metrics[0]: a device shown every experiment's best variant would have a mean of 1.1e+15, above the largest accepted "
        + "1e15: lower the baseline or the lifts (the mean is the baseline times 1 + the largest lift of each experiment)")
  }

  @Test func badNoveltyIsRefusedByField() {
    let cases = [
      (#"{"name": "a", "kind": "conversion", "baseline": 0.2, "novelty": {"Menu": {"initialLifts": {}, "halfLifeDays": 5}}}"#,
       "metrics[0].novelty.Menu: 'Menu' is not an experiment of the scenario (experiments: Theme)"),
      (#"{"name": "a", "kind": "conversion", "baseline": 0.2, "novelty": {"Theme": {"initialLifts": {"Green": 0.1}, "halfLifeDays": 5}}}"#,
       "metrics[0].novelty.Theme.initialLifts.Green: 'Green' is not a variant of Theme (variants: Blue, Red)"),
      (#"{"name": "a", "kind": "conversion", "baseline": 0.2, "novelty": {"Theme": {"initialLifts": {"Red": 0.1}, "halfLifeDays": 0}}}"#,
       "metrics[0].novelty.Theme.halfLifeDays: must lie between 0.1 and 3660, not 0"),
      (#"{"name": "a", "kind": "conversion", "baseline": 0.2, "novelty": {"Theme": {"initialLifts": {"Red": -1}, "halfLifeDays": 5}}}"#,
       "metrics[0].novelty.Theme.initialLifts.Red: must be greater than -1: a lift of -1 removes the outcome entirely"),
      (#"{"name": "a", "kind": "conversion", "baseline": 0.2, "novelty": {"Theme": {"halfLifeDays": 5}}}"#,
       "metrics[0].novelty.Theme.initialLifts: is required"),
      (#"{"name": "converted", "kind": "conversion", "baseline": 0.2, "novelty": {"Theme": {"initialLifts": {"Red": 0.1}, "halfLifeDays": 5}}}, "#
         + #"{"name": "retained", "kind": "conversion", "baseline": 0.2, "novelty": {"Theme": {"initialLifts": {"Red": 0.2}, "halfLifeDays": 3}}}"#,
       "metrics[1].novelty.Theme.halfLifeDays: is 3 where converted gives Theme 5: how fast devices get used to an experiment is one half-life for all its metrics"),
    ]
    for (text, message) in cases {
      expectScenarioError(metrics(text), message)
    }
  }
}
