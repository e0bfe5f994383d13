import Analysis
import Foundation
import Results
import ScenarioFormat
@testable import Simulation
import Tallies
import Testing

/// Winsorized metrics against scipy: the cap at the pooled percentile, the
/// devices capped, the capped means and variances, and Welch's test on them
/// through the analyzer, on the samples scripts/make_fixtures.py drew.
@Suite struct WinsorizationTests {
  private struct Case: Decodable {
    let name: String
    let percentile: Double
    let control: [Int64]
    let treatment: [Int64]
    let cap: Int64
    let capped: [Int]
    let means: [Double]
    let variances: [Double]
    let statistic: Double?
    let pValue: Double?
  }

  private struct Fixtures: Decodable {
    let cases: [Case]
  }

  private static func close(_ actual: Double?, _ expected: Double?) -> Bool {
    guard let actual, let expected else { return actual == nil && expected == nil }
    return abs(actual - expected) <= 1e-9 * max(abs(expected), 1e-300)
  }

  @Test func theCappedComparisonIsScipysWelchTestOnCappedAmounts() throws {
    let url = try #require(Bundle.module.url(forResource: "winsorized", withExtension: "json", subdirectory: "Fixtures"))
    let fixtures = try JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
    #expect(fixtures.cases.count == 6)
    for fixture in fixtures.cases {
      let samples = [fixture.control, fixture.treatment]
      let histograms = samples.map { amounts in
        var histogram = AmountHistogram(stepExponent: 0, keepsMoments: true)
        for steps in amounts { histogram.add(steps: steps) }
        return histogram
      }
      let cap = try #require(AmountHistogram.cap(percentile: fixture.percentile, of: histograms))
      #expect(cap == fixture.cap, "\(fixture.name)")
      let name = Metric.winsorizedName(metric: "revenue", percentile: fixture.percentile)
      let variants = zip(["Classic", "Express"], samples).enumerated().map { index, pair in
        let (variant, amounts) = pair
        var plain = Moments(stepExponent: 0)
        for steps in amounts { plain.add(steps: steps) }
        let (moments, capped) = histograms[index].winsorized(atSteps: cap)
        #expect(capped == fixture.capped[index], "\(fixture.name)")
        #expect(Self.close(moments.mean, fixture.means[index]), "\(fixture.name): mean \(moments.mean ?? .nan)")
        #expect(Self.close(moments.sampleVariance, fixture.variances[index]), "\(fixture.name): variance")
        var result = VariantResult(
          name: variant, weight: 1, exposed: amounts.count, contaminated: 0, firstExposed: amounts.count,
          expectedFirstExposed: nil,
          metrics: [
            MetricSummary(
              name: "revenue", isConversion: false, n: plain.count, conversions: nil, mean: plain.mean,
              variance: plain.sampleVariance, trueMean: nil, trueLift: nil)
          ])
        result.winsorized = [
          WinsorizedSummary(
            metric: "revenue", percentile: fixture.percentile, cap: Double(cap), capped: capped,
            summary: MetricSummary(
              name: name, isConversion: false, n: moments.count, conversions: nil, mean: moments.mean,
              variance: moments.sampleVariance, trueMean: nil, trueLift: nil))
        ]
        return result
      }
      let analysed = ExperimentAnalyzer(settings: settings()).analyze(experiment(variants))
      let analysis = try #require(analysed.analysis.first { $0.metric == name })
      #expect(analysis.kind == "winsorized" && analysis.winsorize == fixture.percentile)
      let comparison = try #require(analysis.comparisons.first)
      #expect(comparison.test.test == "welch-t")
      #expect(Self.close(comparison.test.statistic, fixture.statistic), "\(fixture.name): t \(String(describing: comparison.test.statistic))")
      #expect(Self.close(comparison.test.pValue, fixture.pValue), "\(fixture.name): p \(String(describing: comparison.test.pValue))")
    }
  }
}
