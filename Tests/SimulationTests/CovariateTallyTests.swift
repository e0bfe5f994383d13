import Foundation
import LabTestKit
import Platforms
import Results
import ScenarioFormat
@testable import Simulation
import Tallies
import Testing

/// A metric's covariate: its exact sums, and the correlation the simulation
/// gives it with the outcome.
@Suite struct CovariateTallyTests {
  /// The covariance from the exact sums equals a two-pass computation in
  /// doubles, and does not depend on how the devices were grouped.
  @Test func covarianceIsExactAndOrderFree() throws {
    var stream = RandomStream(state: 20261124)
    let grid = Moments(stepExponent: Moments.stepExponent(forScale: 100))
    var pairs: [(x: Double, y: Double)] = []
    for _ in 0..<5000 {
      let x = stream.nextNormal()
      pairs.append((x, grid.quantize(50 + 20 * x + 30 * stream.nextNormal())))
    }
    var whole = CovariateTally(), outcomes = grid, halves = [CovariateTally(), CovariateTally()], halfOutcomes = [grid, grid]
    for (index, pair) in pairs.enumerated() {
      whole.add(covariate: pair.x, outcome: pair.y, grid: grid)
      outcomes.add(pair.y)
      halves[index % 2].add(covariate: pair.x, outcome: pair.y, grid: grid)
      halfOutcomes[index % 2].add(pair.y)
    }
    var merged = halves[1]
    merged.merge(halves[0])
    halfOutcomes[1].merge(halfOutcomes[0])
    #expect(merged == whole)
    let xs = pairs.map { whole.covariates.quantize($0.x) }, ys = pairs.map(\.y)
    let meanX = xs.reduce(0, +) / Double(xs.count), meanY = ys.reduce(0, +) / Double(ys.count)
    let reference = zip(xs, ys).map { ($0 - meanX) * ($1 - meanY) }.reduce(0, +) / Double(xs.count - 1)
    let covariance = try #require(whole.covariance(with: outcomes))
    #expect(abs(covariance - reference) <= 1e-9 * abs(reference))
    #expect(merged.covariance(with: halfOutcomes[1]) == covariance)
    #expect(abs(covariance - 20) < 4.5 * 36 / Double(pairs.count).squareRoot())
  }

  /// A negative covariance, one device, and outcomes of another sample.
  @Test func edgeCases() throws {
    let grid = Moments(stepExponent: -32)
    var tally = CovariateTally(), outcomes = grid
    tally.add(covariate: 1, outcome: 0, grid: grid)
    outcomes.add(0)
    #expect(tally.covariance(with: outcomes) == nil)
    tally.add(covariate: -1, outcome: 1, grid: grid)
    outcomes.add(1)
    #expect(try #require(tally.covariance(with: outcomes)) == -1)
    #expect(tally.covariance(with: grid) == nil)
  }

  private let scenarioText = """
    { "name": "covariate", "seed": 11, "devices": 40000, "days": 1,
      "versions": [ { "version": "1.0", "releaseDay": 0, "experiments": [
        { "name": "Paywall", "keys": ["paywallTheme"],
          "variants": [ { "name": "A", "assignments": { "paywallTheme": "a" } },
                        { "name": "B", "assignments": { "paywallTheme": "b" } } ] } ] } ],
      "metrics": [
        { "name": "subscribed", "kind": "conversion", "baseline": 0.3, "lifts": { "Paywall": { "B": 0.2 } },
          "covariateCorrelation": 0.5 },
        { "name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 4, "baseline": 10,
          "lifts": { "Paywall": { "B": 0.1 } }, "covariateCorrelation": 0.7 },
        { "name": "refunds", "kind": "continuous", "distribution": "lognormal", "sigma": 1, "baseline": 2,
          "covariateCorrelation": -0.4 },
        { "name": "sessions", "kind": "continuous", "distribution": "gamma", "shape": 2, "baseline": 3 } ] }
    """

  /// The covariate is standard normal in every variant, whatever the lift (it
  /// is measured before the experiment), and correlates with the outcome as
  /// the scenario says: exactly ρ for an amount, whose outcome is its
  /// baseline outcome scaled; for a conversion ρ times the correlation of the
  /// indicators of one uniform below 0.3 and below 0.36 in the treated variant.
  @Test func theCovariateCorrelatesAsTheScenarioSays() async throws {
    let results = await run(try Scenario.parse(Data(scenarioText.utf8)).scenario)
    let experiment = try #require(results.experiment("Paywall"))
    let inTreatment = 0.5 * (0.3 - 0.3 * 0.36) / (0.3 * 0.7 * 0.36 * 0.64).squareRoot()
    for variant in experiment.variants {
      let n = Double(variant.metrics[0].n)
      #expect(n > 19_000)
      for (metric, correlation) in [(0, variant.name == "A" ? 0.5 : inTreatment), (1, 0.7), (2, -0.4)] {
        let summary = variant.metrics[metric], covariate = try #require(summary.covariate)
        #expect(abs(try #require(covariate.mean)) < 4.5 / n.squareRoot(), "\(variant.name) \(summary.name)")
        #expect(abs(try #require(covariate.variance) - 1) < 0.05, "\(variant.name) \(summary.name)")
        let measured = try #require(covariate.covariance)
          / (try #require(covariate.variance) * (try #require(summary.variance))).squareRoot()
        #expect(abs(measured - correlation) < 0.03, "\(variant.name) \(summary.name): \(measured)")
      }
      #expect(variant.metrics[3].covariate == nil)
    }
  }

  /// Metrics without a covariate draw the same outcomes as before covariates
  /// existed: the covariates take a stream of their own.
  @Test func aCovariateLeavesTheOutcomesAlone() async throws {
    var scenario = try Scenario.parse(Data(scenarioText.utf8)).scenario
    let with = await run(scenario)
    for index in scenario.metrics.indices { scenario.metrics[index].covariateCorrelation = nil }
    let without = await run(scenario)
    for (a, b) in zip(with.experiments[0].variants, without.experiments[0].variants) {
      for (x, y) in zip(a.metrics, b.metrics) {
        #expect(x.n == y.n && x.mean == y.mean && x.variance == y.variance && x.conversions == y.conversions)
        #expect(y.covariate == nil)
      }
    }
  }
}
