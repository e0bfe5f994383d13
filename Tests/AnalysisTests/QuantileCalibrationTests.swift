import Analysis
import Foundation
import Results
import ScenarioFormat
import Testing

/// Quantile metrics over replications of scenarios/quantile-metrics.json: the
/// intervals of the median's and the 90th percentile's lifts hold the true
/// +10% 95% of the time, and without lifts their tests declare a difference
/// in alpha of them.
@Suite struct QuantileCalibrationTests {
  private let replications = 1000

  @Test func quantileIntervalsCoverTheTruth() async throws {
    let scenario = try committedScenario("quantile-metrics")
    let documents = await analysedReplications(scenario, count: replications)
    let variants = documents[0].experiments[0].variants
    #expect(variants.map { $0.distributions[0].counts.reduce(0, +) } == variants.map { $0.metrics[0].n })
    let calibration = CalibrationSummary.calibrate(documents, alpha: scenario.analysis.alpha)
    for name in ["revenue.p50", "revenue.p90"] {
      let metric = try #require(calibration.experiments[0].metrics.first { $0.metric == name })
      let comparison = try #require(metric.comparisons.first)
      #expect(abs(try #require(comparison.trueLift) - 0.1) < 1e-12)
      let coverage = try #require(comparison.coverage)
      #expect(binomialInterval99(p: 0.95, n: replications).contains(coverage), "\(name) coverage \(coverage)")
    }
  }

  @Test func anAAQuantileHasAFalsePositiveRateOfAlpha() async throws {
    var scenario = try committedScenario("quantile-metrics")
    scenario.metrics[0].lifts = [:]
    let documents = await analysedReplications(scenario, count: replications)
    for name in ["revenue.p50", "revenue.p90"] {
      let analyses = try documents.map { try #require($0.experiments[0].analysis.first { $0.metric == name }) }
      #expect(analyses.allSatisfy { $0.quantile != nil && $0.comparisons[0].test.test == "quantile-z" })
      let rate = Double(analyses.filter { ($0.comparisons[0].test.pValue ?? 1) < 0.05 }.count) / Double(replications)
      #expect(binomialInterval99(p: 0.05, n: replications).contains(rate), "\(name) false positives \(rate)")
    }
  }
}
