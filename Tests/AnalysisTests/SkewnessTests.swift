import Foundation
import Simulation
import Tallies
import Testing

/// An amount's skewness from the tally's exact sums, against scipy's `skew`
/// on the same values (skewness.json, written by
/// `scripts/make_fixtures.py skewness`).
@Suite struct SkewnessTests {
  private struct Fixture: Decodable {
    struct Case: Decodable {
      let label: String
      let scale: Double
      let values: [Double]
      let skewness: Double
    }
    let cases: [Case]
  }

  private func cases() throws -> [Fixture.Case] {
    let url = try #require(Bundle.module.url(forResource: "skewness", withExtension: "json", subdirectory: "Fixtures"))
    return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url)).cases
  }

  @Test func theTallysSkewnessIsScipys() throws {
    let cases = try cases()
    #expect(cases.count == 7)
    for c in cases {
      var tally = MetricTally(stepExponent: Moments.stepExponent(forScale: c.scale))
      for value in c.values { tally.add(value, isConversion: false) }
      let skewness = try #require(tally.skewness, "\(c.label)")
      #expect(abs(skewness - c.skewness) <= 1e-9 * max(abs(c.skewness), 1e-3), "\(c.label): \(skewness)")
    }
  }

  /// The sums are exact, so halves merged in either order are the whole, to the bit.
  @Test func mergedHalvesAreTheWhole() throws {
    for c in try cases() {
      let grid = Moments.stepExponent(forScale: c.scale)
      var whole = MetricTally(stepExponent: grid), first = whole, second = whole
      for (index, value) in c.values.enumerated() {
        whole.add(value, isConversion: false)
        if index % 3 == 0 { first.add(value, isConversion: false) } else { second.add(value, isConversion: false) }
      }
      var forward = first, backward = second
      forward.merge(second)
      backward.merge(first)
      #expect(forward == whole && backward == whole, "\(c.label)")
    }
  }

  @Test func tooFewOrConstantValuesHaveNoSkewness() {
    var two = MetricTally(stepExponent: -28)
    two.add(1, isConversion: false)
    two.add(3, isConversion: false)
    #expect(two.skewness == nil)
    var constant = MetricTally(stepExponent: -28)
    for _ in 0..<10 { constant.add(4, isConversion: false) }
    #expect(constant.skewness == nil)
  }
}
