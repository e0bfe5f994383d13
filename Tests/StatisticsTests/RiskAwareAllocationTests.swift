import Foundation
import Statistics
import Testing

/// The experiment decision's allocation of alpha and beta, and its sample
/// size, against spotify-confidence 4.1.0 itself (decision-sample-size.json,
/// written by `scripts/make_decision_fixtures.py` with the "spot-1-bonferroni" correction).
@Suite struct RiskAwareAllocationTests {
  @Test func sampleSizesMatchSpotifyConfidence() throws {
    let designs = try ReferenceCases(file: "decision-sample-size").cases("designs")
    #expect(designs.count == 8)
    for design in designs {
      let metrics = try #require(design.values["metrics"] as? [[String: Any]]).map(ReferenceCases.Case.init)
      let success = metrics.filter { $0.optionalDouble("mde") != nil }
      let allocation = try #require(RiskAwareAllocation(
        alpha: design.double("alpha"), power: design.double("power"), successMetrics: success.count,
        guardrails: metrics.count - success.count, treatments: design.int("treatments")))
      var largest = 0
      for metric in metrics {
        let mean = metric.double("mean"), variance = metric.double("variance")
        let n: Int?
        if let mde = metric.optionalDouble("mde") {
          n = metric.values["binary"] as? Bool == true
            ? allocation.sampleSize(baselineRate: mean, treatmentRate: mean * (1 + mde))
            : allocation.sampleSize(difference: mean * mde, controlVariance: variance, treatmentVariance: variance)
        } else {
          n = allocation.sampleSize(
            difference: mean * metric.double("nim"), controlVariance: variance, treatmentVariance: variance)
        }
        #expect(n == metric.int("perVariant"), "\(design.values["name"]!), \(metric.values["name"]!)")
        largest = max(largest, n ?? 0)
      }
      #expect(largest == design.int("perVariant"))
    }
  }

  /// The shares themselves: α/(T·S) per one-sided test, β/(G + 1) per test,
  /// and β/G when every metric is a guardrail.
  @Test func sharesOfAlphaAndBeta() throws {
    let design = try #require(RiskAwareAllocation(alpha: 0.05, power: 0.8, successMetrics: 2, guardrails: 3, treatments: 2))
    #expect(abs(design.testAlpha - 0.0125) < 1e-15)
    #expect(abs(design.testBeta - 0.05) < 1e-15)
    let guardrailsOnly = try #require(RiskAwareAllocation(alpha: 0.05, power: 0.8, successMetrics: 0, guardrails: 2, treatments: 1))
    #expect(guardrailsOnly.testAlpha == 0.05)
    #expect(abs(guardrailsOnly.testBeta - 0.1) < 1e-15)
  }

  /// No effect, no variance, a rate outside [0, 1] and an empty design have no sample size.
  @Test func edges() throws {
    let design = try #require(RiskAwareAllocation(alpha: 0.05, power: 0.8, successMetrics: 1, guardrails: 0, treatments: 1))
    #expect(design.sampleSize(difference: 0, controlVariance: 1, treatmentVariance: 1) == nil)
    #expect(design.sampleSize(difference: 1, controlVariance: 0, treatmentVariance: 0) == nil)
    #expect(design.sampleSize(baselineRate: 0, treatmentRate: 0) == nil)
    #expect(design.sampleSize(baselineRate: 0.9, treatmentRate: 1.2) == nil)
    #expect(design.sampleSize(baselineRate: 0, treatmentRate: 0.01) != nil)
    #expect(RiskAwareAllocation(alpha: 0.05, power: 0.8, successMetrics: 0, guardrails: 0, treatments: 1) == nil)
    #expect(RiskAwareAllocation(alpha: 0.05, power: 0.8, successMetrics: 1, guardrails: 0, treatments: 0) == nil)
    #expect(RiskAwareAllocation(alpha: 0, power: 0.8, successMetrics: 1, guardrails: 0, treatments: 1) == nil)
  }
}
