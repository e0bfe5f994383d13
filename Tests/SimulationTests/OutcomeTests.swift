import Foundation
import Platforms
import Results
import ScenarioFormat
import Testing

/// Outcomes are drawn under what each device was shown; the truth is what it
/// would have had under its counted variant alone.
@Suite struct OutcomeTests {
  private let pureScenario = """
    { "name": "pure", "seed": 5, "devices": 20000, "days": 1,
      "versions": [ { "version": "1.0", "releaseDay": 0, "experiments": [
        { "name": "Paywall", "keys": ["paywallTheme"],
          "variants": [ { "name": "A", "assignments": { "paywallTheme": "a" } },
                        { "name": "B", "assignments": { "paywallTheme": "b" } } ] } ] } ],
      "metrics": [
        { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": { "Paywall": { "B": 0.2 } } },
        { "name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 2, "baseline": 10,
          "lifts": { "Paywall": { "B": 0.1 } } } ] }
    """

  @Test func withoutChangesTheTruthIsTheBaselineTimesTheLift() async throws {
    let results = await run(try Scenario.parse(Data(pureScenario.utf8)).scenario)
    let experiment = try #require(results.experiment("Paywall"))
    let a = try #require(experiment.variant("A")), b = try #require(experiment.variant("B"))
    #expect(a.exposed + b.exposed == 20_000)
    #expect(a.contaminated == 0 && b.contaminated == 0)
    #expect(abs(try #require(a.metrics[0].trueMean) - 0.1) < 1e-9)
    #expect(abs(try #require(b.metrics[0].trueMean) - 0.12) < 1e-9)
    #expect(abs(try #require(b.metrics[1].trueMean) - 11) < 1e-6)
    #expect(a.metrics[0].n == a.exposed)
    #expect(withinBinomialBound(try #require(a.metrics[0].conversions), of: a.metrics[0].n, p: 0.1))
    #expect(withinBinomialBound(try #require(b.metrics[0].conversions), of: b.metrics[0].n, p: 0.12))
    // Gamma with shape 2: standard deviation mean / √2.
    let revenue = b.metrics[1]
    let standardError = 11 / 2.0.squareRoot() / Double(revenue.n).squareRoot()
    #expect(abs(try #require(revenue.mean) - 11) < 4.5 * standardError)
    let variance = try #require(revenue.variance)
    #expect(abs(variance - 60.5) < 0.1 * 60.5)
  }

  /// B's devices are moved when 2.0 deletes B: three quarters to C (lift +100%)
  /// for the second half of their displays. Counted under B, their mean is
  /// 0.1 × (1 + 0.75 × 0.5) = 0.1375 while B's truth stays 0.1.
  @Test func aMovedDeviceCarriesAMixedEffect() async throws {
    var scenario = try scenario("deleted-variant")
    scenario.metrics = try Scenario.parse(Data("""
      { "name": "m", "seed": 1, "devices": 1, "days": 4,
        "versions": [ { "version": "1.0", "releaseDay": 0, "experiments": [
          { "name": "Onboarding", "keys": ["onboardingPages"],
            "variants": [ { "name": "C", "assignments": { "onboardingPages": 1 } } ] } ] } ],
        "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1,
                       "lifts": { "Onboarding": { "C": 1.0 } } } ] }
      """.utf8)).scenario.metrics
    let results = await run(scenario)
    let b = try #require(results.experiment("Onboarding")?.variant("B"))
    #expect(b.contaminated == b.exposed)
    let metric = b.metrics[0]
    #expect(abs(try #require(metric.trueMean) - 0.1) < 1e-9)
    #expect(withinBinomialBound(try #require(metric.conversions), of: metric.n, p: 0.1375))
  }
}
