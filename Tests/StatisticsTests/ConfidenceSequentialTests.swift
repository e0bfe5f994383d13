import Foundation
import Testing

@testable import Statistics

/// What Confidence's group-sequential bounds promise (Lan and DeMets, 1983):
/// read at every look, a true null crosses a bound with the alpha spent,
/// where a fixed-horizon bound read at every look is crossed far more often.
@Suite struct ConfidenceSequentialTests {
  /// The share of null paths of the z statistic, looked at `ratios`, that reach `bounds` at some look.
  private func crossings(bounds: [Double], ratios: [Double], paths: Int) -> Double {
    var normals = Normals(seed: 20_261_128)
    var crossed = 0
    for _ in 0..<paths {
      var sum = 0.0, previous = 0.0
      for (ratio, bound) in zip(ratios, bounds) {
        sum += (ratio - previous).squareRoot() * normals.next()
        previous = ratio
        if sum / ratio.squareRoot() >= bound {
          crossed += 1
          break
        }
      }
    }
    return Double(crossed) / Double(paths)
  }

  @Test func readAtEveryLookTheBoundsSpendAlphaAndAFixedBoundDoesNot() throws {
    // Twelve equally spaced looks; alpha 0.1 over two sides, as Confidence tests a success metric's
    // increase at 0.05: each side may spend 0.05.
    let ratios = (1...12).map { Double($0) / 12 }
    let bounds = try ConfidenceBounds.bounds(informationRatios: ratios, alpha: 0.1, sides: 2)
    let rate = crossings(bounds: bounds, ratios: ratios, paths: 20_000)
    // 20,000 paths: the share's standard error is 0.0015, so 0.05 ± 0.005 is more than three of them.
    #expect(abs(rate - 0.05) < 0.005, "sequential bounds crossed by \(rate) of null paths")
    let fixed = crossings(bounds: Array(repeating: 1.6448536269514722, count: 12), ratios: ratios, paths: 20_000)
    #expect(fixed > 0.15, "a fixed-horizon bound read at twelve looks was crossed by \(fixed)")
  }

  @Test func theFirstBoundSpendsAlphaTimesTSquaredAndTheLastIsAboveTheFixedHorizonOne() throws {
    let bounds = try ConfidenceBounds.bounds(informationRatios: [0.25, 0.5, 0.75, 1], alpha: 0.05, sides: 2)
    // Φ⁻¹(1 − 0.025 · 0.25²), by scipy's norm.ppf.
    #expect(abs(bounds[0] - 2.955166847497834) < 1e-12)
    #expect(bounds.last! > 1.959963984540054)
    #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0 > $1 })
  }

  @Test func aLookThatAddsNothingRepeatsTheBoundBeforeIt() throws {
    let bounds = try ConfidenceBounds.bounds(informationRatios: [0.5, 0.5, 1], alpha: 0.05, sides: 2)
    #expect(bounds[0] == bounds[1])
  }

  @Test func anArmWithoutDevicesOrANegativeVarianceIsRefused() {
    let test = ConfidenceZTest()
    let metric = ConfidenceZTest.Metric(preference: .increase)
    #expect(throws: ConfidenceError.noDevices) {
      try test.compare(metrics: [metric], arms: [[ConfidenceSummary(n: 0, conversions: 0)], [ConfidenceSummary(n: 10, conversions: 1)]])
    }
    #expect(throws: ConfidenceError.negativeVariance) {
      try test.compare(
        metrics: [metric],
        arms: [[ConfidenceSummary(n: 10, sum: 10, sumOfSquares: 9)], [ConfidenceSummary(n: 10, sum: 12, sumOfSquares: 20)]])
    }
  }

  @Test func oneTreatmentAndOneSuccessMetricAreTestedAtTwiceAlphaTwoSided() throws {
    // 1,000 devices an arm, 10% against 13%: Confidence's spot-1 test of an increase at 0.05 is a two-sided
    // test at 0.1; z = 0.03 / √(0.09/1000 + 0.1131/1000).
    let rows = try ConfidenceZTest().compare(
      metrics: [.init(preference: .increase)],
      arms: [[ConfidenceSummary(n: 1000, conversions: 100)], [ConfidenceSummary(n: 1000, conversions: 130)]])
    let z = 0.03 / (0.09 / 1000 + 0.1131 / 1000).squareRoot()
    #expect(abs(rows[0].alpha - 0.1) < 1e-15)
    #expect(abs(rows[0].standardError - 0.03 / z) < 1e-15)
    #expect(rows[0].isSignificantlyBetter)
  }
}
