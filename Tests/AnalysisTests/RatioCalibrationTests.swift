import Analysis
import Foundation
import Results
import ScenarioFormat
import Testing

/// Ratio metrics over replications of scenarios/ratio-metrics.json: the delta
/// method's intervals hold the true lift of revenue per session (−8.3%) 95% of
/// the time, and without lifts its test declares a difference in alpha of them.
@Suite struct RatioCalibrationTests {
  private let replications = 1000

  @Test func ratioIntervalsCoverTheTruth() async throws {
    let scenario = try committedScenario("ratio-metrics")
    let calibration = CalibrationSummary.calibrate(
      await analysedReplications(scenario, count: replications), alpha: scenario.analysis.alpha)
    let metric = try #require(calibration.experiments[0].metrics.first { $0.metric == "revenuePerSession" })
    let comparison = try #require(metric.comparisons.first)
    let trueLift = try #require(comparison.trueLift), expectedLift: Double = 1.1 / 1.2 - 1
    #expect(abs(trueLift - expectedLift) < 1e-12)
    let coverage = try #require(comparison.coverage)
    #expect(binomialInterval99(p: 0.95, n: replications).contains(coverage), "coverage \(coverage)")
  }

  @Test func anAARatioHasAFalsePositiveRateOfAlpha() async throws {
    var scenario = try committedScenario("ratio-metrics")
    for index in scenario.metrics.indices { scenario.metrics[index].lifts = [:] }
    let documents = await analysedReplications(scenario, count: replications)
    let analyses = try documents.map { try #require($0.experiments[0].analysis.first { $0.metric == "revenuePerSession" }) }
    #expect(analyses.allSatisfy { $0.isRatio && $0.comparisons[0].test.test == "delta-method-z" })
    let rate = Double(analyses.filter { ($0.comparisons[0].test.pValue ?? 1) < 0.05 }.count) / Double(replications)
    #expect(binomialInterval99(p: 0.05, n: replications).contains(rate), "false positives \(rate)")
  }
}
