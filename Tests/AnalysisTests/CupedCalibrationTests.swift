import Analysis
import Foundation
import Results
import ScenarioFormat
import Statistics
import Testing

/// CUPED over replications of scenarios/cuped.json (a 5% revenue lift,
/// covariate correlation 0.7, about 1,000 devices an arm): its intervals
/// still hold the truth 95% of the time, its A/A false-positive rate is alpha,
/// and it removes the share of variance and gains the power theory says.
@Suite struct CupedCalibrationTests {
  private let replications = 1000

  /// The revenue comparison of each replication.
  private func revenueComparisons(_ scenario: Scenario) async throws -> [Comparison] {
    let documents = await analysedReplications(scenario, count: replications)
    return try documents.map { document in
      let analysis = try #require(document.experiments[0].analysis.first { $0.metric == "revenue" })
      return try #require(analysis.comparisons.first)
    }
  }

  @Test func intervalsCoverAndPowerRisesAsTheorySays() async throws {
    let scenario = try committedScenario("cuped")
    let comparisons = try await revenueComparisons(scenario)
    #expect(comparisons.allSatisfy { $0.test.test == "cuped-welch-t" && $0.covariateAdjustment != nil })
    let covered = comparisons.filter { comparison in
      guard let interval = comparison.liftInterval, let truth = comparison.trueLift else { return false }
      return interval.lower <= truth && truth <= interval.upper
    }.count
    let coverage = Double(covered) / Double(replications)
    #expect(binomialInterval99(p: 0.95, n: replications).contains(coverage), "coverage \(coverage)")

    // The variance of the estimated difference over replications: adjusted
    // against unadjusted, where theory says 1 − ρ² = 0.51.
    func variance(_ values: [Double]) -> Double {
      let mean = values.reduce(0, +) / Double(values.count)
      return values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)
    }
    let adjusted = try comparisons.map { try #require($0.meanDifference) }
    let documents = await replicationDocuments(scenario, count: replications)
    let unadjusted = try documents.map { document in
      let variants = document.experiments[0].variants
      return try #require(variants[1].metrics[1].mean) - (try #require(variants[0].metrics[1].mean))
    }
    let ratio = variance(adjusted) / variance(unadjusted)
    #expect((0.41...0.61).contains(ratio), "variance ratio \(ratio)")
    let reported = try comparisons.map { try #require($0.covariateAdjustment?.varianceReduction) }
    let meanReduction = reported.reduce(0, +) / Double(reported.count)
    #expect(abs(meanReduction - 0.49) < 0.02, "mean reported reduction \(meanReduction)")

    // Power for a 5% lift on a gamma amount of mean 10 and shape 4 (standard
    // deviations 5 and 5.25), 1,000 devices an arm, with the variance times 1 − ρ².
    func power(varianceFactor: Double) -> Double {
      let standardError = ((25 + 5.25 * 5.25) * varianceFactor / 1000).squareRoot()
      let shift = 0.5 / standardError, z = 1.959963984540054
      return Distribution.normalCDF(shift - z) + Distribution.normalCDF(-shift - z)
    }
    let significant = Double(comparisons.filter { ($0.test.pValue ?? 1) < 0.05 }.count) / Double(replications)
    let unadjustedSignificant = Double(comparisons.filter { ($0.covariateAdjustment?.unadjusted.pValue ?? 1) < 0.05 }.count)
      / Double(replications)
    #expect(binomialInterval99(p: power(varianceFactor: 0.51), n: replications).contains(significant), "power \(significant)")
    #expect(
      binomialInterval99(p: power(varianceFactor: 1), n: replications).contains(unadjustedSignificant),
      "unadjusted power \(unadjustedSignificant)")
  }

  /// Without a lift the adjusted test declares a difference in alpha of the
  /// replications, on the rate and on the amount.
  @Test func anAATestStaysAtAlpha() async throws {
    var scenario = try committedScenario("cuped")
    for index in scenario.metrics.indices { scenario.metrics[index].lifts = [:] }
    let documents = await analysedReplications(scenario, count: replications)
    for metric in 0..<2 {
      let pValues = try documents.map { document in
        let comparison = try #require(document.experiments[0].analysis[metric].comparisons.first)
        #expect(comparison.test.test == "cuped-welch-t")
        return try #require(comparison.test.pValue)
      }
      let rate = Double(pValues.filter { $0 < 0.05 }.count) / Double(replications)
      #expect(binomialInterval99(p: 0.05, n: replications).contains(rate), "metric \(metric): false positives \(rate)")
    }
  }
}
