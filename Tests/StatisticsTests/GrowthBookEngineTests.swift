import Foundation
import Testing

@testable import Statistics

/// GrowthBook's analysis engine as gbstats 0.8.0 computes it: every figure of
/// its frequentist, sequential and Bayesian tests on the summary tables
/// scripts/make_engine_fixtures.py asked gbstats itself about.
@Suite struct GrowthBookEngineTests {
  struct Table: Decodable {
    let kind: String
    let n: Int
    let sum: Double?
    let sumSquares: Double?
    let numerator: Box?
    let denominator: Box?
    let post: Box?
    let pre: Box?
    let sumOfProducts: Double?

    /// A nested table (a ratio's or an adjusted amount's part).
    final class Box: Decodable, Sendable {
      let table: Table
      init(from decoder: any Decoder) throws { table = try Table(from: decoder) }
    }

    var statistic: GrowthBookStatistic {
      switch kind {
      case "proportion": return .proportion(n: n, sum: sum!)
      case "mean": return .sampleMean(n: n, sum: sum!, sumSquares: sumSquares!)
      case "ratio":
        return .ratio(n: n, numerator: numerator!.table.statistic, denominator: denominator!.table.statistic, sumOfProducts: sumOfProducts!)
      default:
        return .regressionAdjusted(n: n, post: post!.table.statistic, pre: pre!.table.statistic, sumOfProducts: sumOfProducts!, theta: 0)
      }
    }
  }

  struct Settings: Decodable {
    struct Prior: Decodable { let mean: Double; let variance: Double; let proper: Bool }
    let differenceType: String?
    let alpha: Double?
    let sequentialTuningParameter: Double?
    let inverse: Bool?
    let prior: Prior?
  }

  struct Result: Decodable {
    let expected: FixtureNumber
    let ci: [FixtureNumber]
    let upliftStddev: FixtureNumber
    let errorMessage: String?
    let pValue: FixtureNumber?
    let chanceToWin: FixtureNumber?
    let risk: [FixtureNumber]?
  }

  struct Case: Decodable {
    let name: String
    let test: String
    let settings: Settings
    let baseline: Table
    let variation: Table
    let result: Result
  }

  struct Fixtures: Decodable {
    let generator: String
    let cases: [Case]
  }

  static let fixtures: Fixtures = {
    let url = Bundle.module.url(forResource: "gbstats", withExtension: "json", subdirectory: "Fixtures")!
    return try! JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
  }()

  /// A lift, an interval's end or a risk: within 1e-9 of gbstats' value, relatively, or 1e-12 near 0.
  private func close(_ actual: Double, _ expected: Double) -> Bool {
    if actual == expected { return true }
    return abs(actual - expected) <= max(1e-9 * abs(expected), 1e-12)
  }

  /// A probability, which gbstats computes as 1 − P and so only to about 1e-16 near 0: within 1e-9.
  private func closeProbability(_ actual: Double, _ expected: Double) -> Bool {
    abs(actual - expected) <= 1e-9
  }

  private func difference(_ settings: Settings) -> GrowthBookDifference {
    settings.differenceType == "absolute" ? .absolute : .relative
  }

  @Test func theFixturesSpanTheEnginesAndTheEdges() {
    let cases = Self.fixtures.cases
    #expect(Self.fixtures.generator.hasPrefix("gbstats 0.8.0"))
    #expect(cases.count > 1500)
    for test in ["frequentist", "sequential", "bayesian"] {
      #expect(cases.filter { $0.test == test }.count > 400)
    }
    for kind in ["proportion", "mean", "ratio", "cuped"] {
      #expect(cases.contains { $0.baseline.kind == kind })
    }
    for refusal in GrowthBookRefusal.allCases {
      #expect(cases.contains { $0.result.errorMessage == refusal.rawValue }, "\(refusal)")
    }
  }

  @Test func frequentistAndSequentialTestsMatchGbstats() {
    var checked = 0
    for fixture in Self.fixtures.cases where fixture.test != "bayesian" {
      let settings = fixture.settings
      let baseline = fixture.baseline.statistic, variation = fixture.variation.statistic
      let result = fixture.test == "frequentist"
        ? GrowthBookTTest(alpha: settings.alpha ?? 0.05, difference: difference(settings))
          .compare(baseline: baseline, variation: variation)
        : GrowthBookSequentialTest(
          alpha: settings.alpha ?? 0.05, difference: difference(settings),
          tuningParameter: settings.sequentialTuningParameter ?? 5000)
          .compare(baseline: baseline, variation: variation)
      let expected = fixture.result
      let label = "\(fixture.test) \(fixture.name) \(settings.differenceType ?? "relative")"
      #expect(result.refusal?.rawValue == expected.errorMessage, "\(label)")
      #expect(close(result.expected, expected.expected.value), "\(label): lift \(result.expected) vs \(expected.expected.value)")
      #expect(close(result.interval.lower, expected.ci[0].value), "\(label): lower \(result.interval.lower) vs \(expected.ci[0].value)")
      #expect(close(result.interval.upper, expected.ci[1].value), "\(label): upper \(result.interval.upper) vs \(expected.ci[1].value)")
      #expect(closeProbability(result.pValue, expected.pValue!.value), "\(label): p \(result.pValue) vs \(expected.pValue!.value)")
      #expect(close(result.standardError, expected.upliftStddev.value), "\(label): se")
      checked += 1
    }
    #expect(checked > 1000)
  }

  @Test func bayesianTestMatchesGbstats() {
    var checked = 0
    for fixture in Self.fixtures.cases where fixture.test == "bayesian" {
      let settings = fixture.settings
      let prior = settings.prior.map { GrowthBookBayesianTest.Prior(mean: $0.mean, variance: $0.variance, isProper: $0.proper) }
      let test = GrowthBookBayesianTest(
        alpha: settings.alpha ?? 0.05, difference: difference(settings), inverse: settings.inverse ?? false,
        prior: prior ?? GrowthBookBayesianTest.Prior())
      let result = test.compare(baseline: fixture.baseline.statistic, variation: fixture.variation.statistic)
      let expected = fixture.result
      let label = "bayesian \(fixture.name) \(settings)"
      #expect(result.refusal?.rawValue == expected.errorMessage, "\(label)")
      #expect(close(result.expected, expected.expected.value), "\(label): lift \(result.expected) vs \(expected.expected.value)")
      #expect(close(result.interval.lower, expected.ci[0].value), "\(label): lower \(result.interval.lower) vs \(expected.ci[0].value)")
      #expect(close(result.interval.upper, expected.ci[1].value), "\(label): upper \(result.interval.upper) vs \(expected.ci[1].value)")
      #expect(
        closeProbability(result.chanceToWin, expected.chanceToWin!.value),
        "\(label): chance \(result.chanceToWin) vs \(expected.chanceToWin!.value)")
      #expect(close(result.risk.baseline, expected.risk![0].value), "\(label): risk \(result.risk.baseline) vs \(expected.risk![0].value)")
      #expect(close(result.risk.variation, expected.risk![1].value), "\(label): risk \(result.risk.variation) vs \(expected.risk![1].value)")
      #expect(close(result.standardDeviation, expected.upliftStddev.value), "\(label): sd")
      checked += 1
    }
    #expect(checked > 500)
  }
}
