import Analysis
import Foundation
import Results
import ScenarioFormat
import Statistics
import Testing

/// Winsorized revenue over replications of scenarios/winsorized-revenue.json
/// (log-normal, sigma 2, a true lift of 10%, capped at the 99th percentile):
/// the capped lift is biased below the truth by what theory says capping
/// costs, its interval holds the capped means' own lift 95% of the time, it
/// finds the lift more often than the uncapped mean, and without a lift its
/// test declares a difference in alpha of replications.
@Suite struct WinsorizationCalibrationTests {
  private let replications = 2000
  private let devices = 6000

  /// The lift of the capped means in a population of two equal arms of
  /// log-normal amounts with means 10 and 11 and sigma 2, capped at their
  /// pooled `percentile`: E[min(X, c)] = m Φ((ln c − μ − σ²)/σ) + c (1 − Φ((ln c − μ)/σ)).
  private func cappedLift(percentile: Double, sigma: Double = 2) -> Double {
    let means = [10.0, 11.0], mus = means.map { log($0) - sigma * sigma / 2 }
    func share(below logCap: Double) -> Double {
      mus.map { Distribution.normalCDF((logCap - $0) / sigma) }.reduce(0, +) / 2
    }
    var (low, high) = (-50.0, 50.0)
    for _ in 0..<200 {
      let middle = (low + high) / 2
      if share(below: middle) < percentile { low = middle } else { high = middle }
    }
    let logCap = (low + high) / 2, cap = exp(logCap)
    let capped = zip(means, mus).map { mean, mu in
      mean * Distribution.normalCDF((logCap - mu - sigma * sigma) / sigma)
        + cap * (1 - Distribution.normalCDF((logCap - mu) / sigma))
    }
    return capped[1] / capped[0] - 1
  }

  @Test func theCappedLiftIsBiasedAsTheoryPredictsAndFoundMoreOften() async throws {
    var scenario = try committedScenario("winsorized-revenue")
    scenario.devices = devices
    let documents = await analysedReplications(scenario, count: replications)
    let variants = documents[0].experiments[0].variants
    #expect(variants.allSatisfy { $0.winsorized[0].summary.n == $0.metrics[0].n && $0.winsorized[0].capped > 0 })
    let calibration = CalibrationSummary.calibrate(documents, alpha: scenario.analysis.alpha)
    let metrics = calibration.experiments[0].metrics
    let plain = try #require(metrics.first { $0.metric == "revenue" }?.comparisons.first)
    let capped = try #require(metrics.first { $0.metric == "revenue.w99" }?.comparisons.first)
    // The truth both are judged against is revenue's uncapped lift.
    #expect(abs(try #require(capped.trueLift) - 0.1) < 1e-12)
    let theory = cappedLift(percentile: 0.99)
    #expect(theory > 0.03 && theory < 0.09, "capped lift \(theory)")
    // The capped lifts average to the capped means' lift, within 4 standard errors of their mean.
    let lifts = try documents.map { document in
      try #require(document.experiments[0].analysis.first { $0.metric == "revenue.w99" }?.comparisons[0].lift)
    }
    let mean = lifts.reduce(0, +) / Double(lifts.count)
    let spread = (lifts.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(lifts.count - 1)).squareRoot()
    #expect(abs(try #require(capped.meanLift) - mean) < 1e-12)
    #expect(abs(mean - theory) < 4 * spread / Double(lifts.count).squareRoot(), "mean capped lift \(mean), theory \(theory)")
    // Its intervals hold the capped lift 95% of the time.
    let held = try documents.filter { document in
      let comparison = try #require(document.experiments[0].analysis.first { $0.metric == "revenue.w99" }?.comparisons[0])
      let interval = try #require(comparison.liftInterval)
      return interval.lower <= theory && theory <= interval.upper
    }.count
    #expect(binomialInterval99(p: 0.95, n: replications).contains(Double(held) / Double(replications)), "held \(held)")
    // The true +10% they hold as often as a normal estimate centred on the capped lift would.
    let shift = (0.1 - theory) / spread, z = 1.959964
    let expected = Distribution.normalCDF(z - shift) - Distribution.normalCDF(-z - shift)
    let coverage = try #require(capped.coverage)
    #expect(binomialInterval99(p: expected, n: replications).contains(coverage), "coverage \(coverage), expected \(expected)")
    #expect(capped.significantRate > plain.significantRate + 0.1, "capped \(capped.significantRate), plain \(plain.significantRate)")
  }

  @Test func anAAWinsorizedMetricHasAFalsePositiveRateOfAlpha() async throws {
    var scenario = try committedScenario("winsorized-revenue")
    scenario.devices = devices
    scenario.metrics[0].lifts = [:]
    let documents = await analysedReplications(scenario, count: replications)
    let analyses = try documents.map { try #require($0.experiments[0].analysis.first { $0.metric == "revenue.w99" }) }
    #expect(analyses.allSatisfy { $0.kind == "winsorized" && $0.comparisons[0].test.test == "welch-t" })
    let rate = Double(analyses.filter { ($0.comparisons[0].test.pValue ?? 1) < 0.05 }.count) / Double(replications)
    #expect(binomialInterval99(p: 0.05, n: replications).contains(rate), "false positives \(rate)")
  }
}
