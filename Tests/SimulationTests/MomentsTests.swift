import Foundation
import LabTestKit
import Platforms
import Results
import ScenarioFormat
@testable import Simulation
import Tallies
import Testing

/// Exact sums hold every amount the scenario format accepts at any population:
/// no trap, no overflow, no amount lost below the grid (docs/simulation.md).
@Suite struct MomentsTests {
  /// An A/B test on one amount metric, over one day.
  private func amountScenario(baseline: String, sigma: Double, devices: Int, lift: Double) throws -> Scenario {
    try Scenario.parse(Data("""
      { "name": "amounts", "seed": 17, "devices": \(devices), "days": 1,
        "versions": [ { "version": "1.0", "releaseDay": 0, "experiments": [
          { "name": "Price", "keys": ["price"],
            "variants": [ { "name": "A", "assignments": { "price": "a" } },
                          { "name": "B", "assignments": { "price": "b" } } ] } ] } ],
        "metrics": [ { "name": "revenue", "kind": "continuous", "distribution": "lognormal", "sigma": \(sigma),
                       "baseline": \(baseline), "lifts": { "Price": { "B": \(lift) } } } ] }
      """.utf8)).scenario
  }

  /// A revenue of about 2.2e9 in a minor currency unit trapped in the truth's
  /// sum; 2e9 with sigma 5 over 200,000 devices overflowed the sum of squares
  /// when batches merged. Both now run, and the totals are the same whatever
  /// the batches.
  @Test func largeAmountsNeitherTrapNorOverflow() async throws {
    let scenario = try amountScenario(baseline: "2.2e9", sigma: 1, devices: 20_000, lift: 0.1)
    let results = await run(scenario)
    let b = try #require(results.experiment("Price")?.variant("B")?.metrics.first)
    #expect(abs(try #require(b.trueMean) - 2.42e9) < 1)
    let standardError = 2.42e9 * (exp(1.0) - 1).squareRoot() / Double(b.n).squareRoot()
    #expect(abs(try #require(b.mean) - 2.42e9) < 4.5 * standardError)

    let heavy = try amountScenario(baseline: "2e9", sigma: 5, devices: 200_000, lift: 0)
    let batches = await resultsJSON(heavy, threads: 2, batchSize: 7_919)
    #expect(batches == (await resultsJSON(heavy, threads: 1)))
    let a = try #require(await run(heavy).experiment("Price")?.variant("A")?.metrics.first)
    #expect(try #require(a.variance) > 0 && a.variance!.isFinite)
  }

  /// A mean of 1e-7 with a true lift of 10% was drawn on a grid of 2⁻²⁰ and
  /// read as no lift at all; on the metric's own grid the lift is measured.
  @Test func tinyAmountsKeepTheirLift() async throws {
    let results = await run(try amountScenario(baseline: "1e-7", sigma: 0.5, devices: 40_000, lift: 0.1))
    let experiment = try #require(results.experiment("Price"))
    let a = try #require(experiment.variant("A")?.metrics.first), b = try #require(experiment.variant("B")?.metrics.first)
    let lift = try #require(b.mean) / (try #require(a.mean)) - 1
    // Log-normal, sigma 0.5: coefficient of variation 0.53 per device, about 0.0053 on a mean over 20,000.
    #expect(abs(lift - 0.1) < 4.5 * 0.0053 * 2.0.squareRoot() * 1.1)
    #expect(abs(try #require(a.trueMean) - 1e-7) < 1e-15)
  }

  @Test func aConstantStreamHasNoVarianceAndMergesExactly() {
    var whole = Moments(stepExponent: Moments.stepExponent(forScale: 1e15))
    var left = whole, right = whole
    for index in 0..<1_000 {
      let value = 999_999_999_999_999.0
      whole.add(value)
      if index % 3 == 0 { left.add(value) } else { right.add(value) }
    }
    left.merge(right)
    #expect(left == whole)
    #expect(whole.sampleVariance == 0)
    #expect(whole.mean == whole.quantize(999_999_999_999_999.0))
  }

  /// Two values at the clamp, ±2⁶² steps: the variance is exact, 2 × (2⁶² step)².
  @Test func theLargestStepsGiveAnExactVariance() throws {
    var moments = Moments(stepExponent: 0)
    moments.add(1e300)
    moments.add(-1e300)
    #expect(moments.mean == 0)
    #expect(try #require(moments.sampleVariance) == 2 * 0x1p62 * 0x1p62)
  }

  /// The grid follows the scale: 2⁻³² of the scale's power of two.
  @Test func theGridFollowsTheScale() {
    #expect(Moments.stepExponent(forScale: 1) == -31)
    #expect(Moments.stepExponent(forScale: 1.9) == -31)
    #expect(Moments.stepExponent(forScale: 2.2e9) == 0)
    #expect(Moments.stepExponent(forScale: 1e-7) == -55)
    #expect(Moments.stepExponent(forLargest: 1000) == -52)
  }

  /// Outcomes are rounded onto the grid without libm: the result must be
  /// `rounded()`'s (half away from zero), clamped to ±2⁶² steps, everywhere.
  @Test func nearestStepsRoundsAsRoundedDoes() {
    var generator = SeededGenerator(seed: 20261124)
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 4503599627370495.5,
      -4503599627370495.5, 0x1p52, 0x1p53 + 2, 0x1p62, -0x1p62, 0x1p63, -0x1p70, .infinity, -.infinity,
      .leastNonzeroMagnitude, .greatestFiniteMagnitude,
    ]
    for _ in 0..<20_000 {
      let magnitude = Double(sign: .plus, exponent: Int.random(in: -4...64, using: &generator), significand: 1)
      values.append(Double.random(in: -magnitude...magnitude, using: &generator))
      values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) + 0.5)
    }
    for value in values {
      let expected = Int64(min(max(value.rounded(), -0x1p62), 0x1p62))
      #expect(Moments.nearestSteps(value) == expected, "\(value)")
    }
    #expect(Moments.nearestSteps(.nan) == nil)
  }

  /// The simulator adds a slot's shares once per batch, times its count of
  /// first exposures: the same sum as adding each share at each exposure.
  @Test func addingTimesIsAddingThatManyTimes() {
    var generator = SeededGenerator(seed: 20261125)
    for _ in 0..<200 {
      let value = Double.random(in: 0...1, using: &generator) / Double(Int.random(in: 1...7, using: &generator))
      let times = Int.random(in: 0...300, using: &generator)
      var once = ExactSum(), repeated = ExactSum()
      once.add(value, times: times)
      for _ in 0..<times { repeated.add(value) }
      #expect(once == repeated, "\(value) × \(times)")
      #expect(once.value == Double(times) * (value * 0x1p32).rounded() * 0x1p-32, "\(value) × \(times)")
    }
  }
}
