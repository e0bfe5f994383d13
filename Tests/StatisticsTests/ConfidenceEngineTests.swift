import Foundation
import Testing

@testable import Statistics

/// Spotify Confidence's analysis engine as spotify-confidence 4.1.0 computes
/// it: its group-sequential bounds, and every figure of its z test's
/// comparisons, fixed-horizon and sequential, on the summary tables
/// scripts/make_confidence_fixtures.py asked the library itself about.
@Suite struct ConfidenceEngineTests {
  struct BoundCase: Decodable {
    struct Expected: Decodable {
      let bounds: [FixtureNumber]?
      let error: String?
    }

    let t: [Double]
    let alpha: Double
    let sides: Int
    let expected: Expected
  }

  struct Summary: Decodable {
    struct Feature: Decodable {
      let sum: Double
      let sumSquares: Double
      let crossSum: Double
    }

    let n: Int
    let sum: Double
    let sumSquares: Double
    let feature: Feature?

    var summary: ConfidenceSummary {
      ConfidenceSummary(
        n: n, sum: sum, sumOfSquares: sumSquares,
        feature: feature.map { ConfidenceSummary.Feature(sum: $0.sum, sumOfSquares: $0.sumSquares, crossSum: $0.crossSum) })
    }
  }

  struct Metric: Decodable {
    let name: String
    let nim: Double?
    let preference: String?
  }

  struct Row: Decodable {
    let day: Int
    let metric: String
    let treatment: String
    let difference: FixtureNumber
    let standardError: FixtureNumber
    let nullHypothesis: FixtureNumber
    let alpha: FixtureNumber
    let adjustedAlpha: FixtureNumber
    let pValue: FixtureNumber?
    let adjustedPValue: FixtureNumber?
    let significant: Bool
    let lower: FixtureNumber
    let upper: FixtureNumber
    let adjustedLower: FixtureNumber
    let adjustedUpper: FixtureNumber
  }

  struct Table: Decodable {
    struct Expected: Decodable {
      let rows: [Row]?
      let error: String?
    }

    let name: String
    let interval: Double
    let metrics: [Metric]
    let looks: [[[String: Summary]]]
    let finalExpectedSampleSize: Double?
    let expected: Expected
  }

  struct Fixtures: Decodable {
    let generator: String
    let bounds: [BoundCase]
    let comparisons: [Table]
  }

  static let fixtures: Fixtures = {
    let url = Bundle.module.url(forResource: "confidence", withExtension: "json", subdirectory: "Fixtures")!
    return try! JSONDecoder().decode(Fixtures.self, from: Data(contentsOf: url))
  }()

  /// Within 1e-9 of the library's value, relatively, or 1e-12 near 0; NaN where it has NaN.
  private func close(_ actual: Double, _ expected: Double) -> Bool {
    if actual == expected || (actual.isNaN && expected.isNaN) { return true }
    return abs(actual - expected) <= max(1e-9 * abs(expected), 1e-12)
  }

  @Test func theFixturesSpanTheReadsAndTheEdges() {
    let fixtures = Self.fixtures
    #expect(fixtures.generator == "spotify-confidence==4.1.0")
    #expect(fixtures.bounds.count >= 60)
    let sequential = fixtures.comparisons.filter { $0.finalExpectedSampleSize != nil }
    #expect(sequential.count >= 80)
    #expect(sequential.contains { $0.looks.count >= 10 })
    #expect(fixtures.comparisons.count - sequential.count >= 140)
    let rows = fixtures.comparisons.flatMap { $0.expected.rows ?? [] }
    #expect(rows.count > 1500)
    #expect(rows.filter(\.significant).count > 300)
    #expect(rows.filter { !$0.significant }.count > 300)
    #expect(fixtures.comparisons.contains { $0.metrics.contains { $0.nim != nil } })
    #expect(fixtures.comparisons.contains { $0.metrics.contains { $0.preference == nil } })
    #expect(fixtures.comparisons.contains { $0.looks[0].count == 4 })
    // Confidence's CUPED (ZTestLinreg), read once and sequentially.
    let adjusted = fixtures.comparisons.filter { $0.looks[0][0].values.contains { $0.feature != nil } }
    #expect(adjusted.count >= 40)
    #expect(adjusted.contains { $0.finalExpectedSampleSize != nil } && adjusted.contains { $0.finalExpectedSampleSize == nil })
  }

  @Test func boundsMatchConfidence() throws {
    for fixture in Self.fixtures.bounds {
      let label = "t \(fixture.t) alpha \(fixture.alpha) sides \(fixture.sides)"
      if let expected = fixture.expected.bounds {
        let bounds = try ConfidenceBounds.bounds(informationRatios: fixture.t, alpha: fixture.alpha, sides: fixture.sides)
        #expect(bounds.count == expected.count, "\(label)")
        for (actual, wanted) in zip(bounds, expected) {
          #expect(close(actual, wanted.value), "\(label): \(actual) vs \(wanted.value)")
        }
      } else {
        #expect(throws: ConfidenceBoundsError.self, "\(label)") {
          try ConfidenceBounds.bounds(informationRatios: fixture.t, alpha: fixture.alpha, sides: fixture.sides)
        }
      }
    }
  }

  @Test func oneLookAtTheWholeSampleIsTheFixedHorizonBound() throws {
    let bounds = try ConfidenceBounds.bounds(informationRatios: [1], alpha: 0.05, sides: 2)
    #expect(abs(bounds[0] - 1.959963984540054) < 1e-12)
  }

  @Test func boundsRefuseWhatConfidenceRefuses() {
    #expect(throws: ConfidenceBoundsError.zeroRatio) { try ConfidenceBounds.bounds(informationRatios: [0, 1], alpha: 0.05, sides: 2) }
    #expect(throws: ConfidenceBoundsError.notIncreasing) {
      try ConfidenceBounds.bounds(informationRatios: [0.6, 0.5], alpha: 0.05, sides: 2)
    }
    #expect(throws: ConfidenceBoundsError.sides(3)) { try ConfidenceBounds.bounds(informationRatios: [1], alpha: 0.05, sides: 3) }
    // Where spotify-confidence's grid would have no first bound (it fails on it), or no ratio at all, an error, not a trap.
    #expect(throws: ConfidenceBoundsError.wholeAlphaAtFirstLook) {
      try ConfidenceBounds.bounds(informationRatios: [10], alpha: 0.05, sides: 1)
    }
    #expect(throws: ConfidenceBoundsError.zeroRatio) { try ConfidenceBounds.bounds(informationRatios: [.infinity], alpha: 0.05, sides: 2) }
    #expect(throws: ConfidenceBoundsError.zeroRatio) { try ConfidenceBounds.bounds(informationRatios: [.nan], alpha: 0.05, sides: 2) }
  }

  @Test func comparisonsMatchConfidence() throws {
    var checked = 0
    for table in Self.fixtures.comparisons {
      let metrics = table.metrics.map { metric in
        ConfidenceZTest.Metric(
          nonInferiorityMargin: metric.nim,
          preference: metric.preference == "increase" ? .increase : metric.preference == "decrease" ? .decrease : .twoSided)
      }
      let looks = table.looks.map { arms in
        arms.map { arm in
          table.metrics.map { arm[$0.name]!.summary }
        }
      }
      let test = ConfidenceZTest(intervalSize: table.interval)
      guard let expectedRows = table.expected.rows else {
        #expect(throws: ConfidenceError.self, "\(table.name)") {
          if let planned = table.finalExpectedSampleSize {
            _ = try test.compareSequentially(metrics: metrics, looks: looks, finalExpectedSampleSize: planned)
          } else {
            _ = try test.compare(metrics: metrics, arms: looks[0])
          }
        }
        continue
      }
      let read =
        if let planned = table.finalExpectedSampleSize {
          try test.compareSequentially(metrics: metrics, looks: looks, finalExpectedSampleSize: planned)
        } else {
          [try test.compare(metrics: metrics, arms: looks[0])]
        }
      #expect(read.map(\.count).reduce(0, +) == expectedRows.count, "\(table.name)")
      for expected in expectedRows {
        let metric = table.metrics.firstIndex { $0.name == expected.metric }!
        let treatment = Int(expected.treatment.dropFirst("treatment".count))!
        guard let row = read[expected.day - 1].first(where: { $0.metric == metric && $0.treatment == treatment }) else {
          Issue.record("\(table.name): no row for day \(expected.day) \(expected.metric) \(expected.treatment)")
          continue
        }
        let label = "\(table.name) day \(expected.day) \(expected.metric) \(expected.treatment)"
        #expect(close(row.difference, expected.difference.value), "\(label): difference \(row.difference) vs \(expected.difference.value)")
        #expect(close(row.standardError, expected.standardError.value), "\(label): standard error")
        #expect(close(row.nullHypothesis, expected.nullHypothesis.value), "\(label): null")
        #expect(close(row.alpha, expected.alpha.value), "\(label): alpha")
        #expect(close(row.adjustedAlpha, expected.adjustedAlpha.value), "\(label): adjusted alpha \(row.adjustedAlpha) vs \(expected.adjustedAlpha.value)")
        #expect(row.isSignificant == expected.significant, "\(label): significance")
        #expect(close(row.interval.lower, expected.lower.value), "\(label): lower")
        #expect(close(row.interval.upper, expected.upper.value), "\(label): upper")
        #expect(close(row.adjustedInterval.lower, expected.adjustedLower.value), "\(label): adjusted lower \(row.adjustedInterval.lower) vs \(expected.adjustedLower.value)")
        #expect(close(row.adjustedInterval.upper, expected.adjustedUpper.value), "\(label): adjusted upper")
        if let p = expected.pValue {
          #expect(abs((row.pValue ?? .nan) - p.value) <= 1e-9 || (row.pValue?.isNaN == true && p.value.isNaN), "\(label): p \(String(describing: row.pValue)) vs \(p.value)")
          #expect(abs((row.adjustedPValue ?? .nan) - expected.adjustedPValue!.value) <= 1e-9 || expected.adjustedPValue!.value.isNaN, "\(label): adjusted p")
        } else {
          #expect(row.pValue == nil, "\(label): a sequential read reports no p-value")
        }
        checked += 1
      }
    }
    #expect(checked > 1500)
  }

  /// A page read every day: each day's comparisons are exactly those of a sequential read of the days so
  /// far, whether the bounds were extended from the day before or, once a look passes the planned
  /// sample and rescales every look, solved again.
  @Test func aReadKeptDayByDayEqualsReadingTheDaysSoFar() throws {
    var rescaled = 0, extended = 0
    // Reading every prefix again costs the square of the looks: a third of the sequential tables suffice.
    let sequential = Self.fixtures.comparisons.filter { $0.finalExpectedSampleSize != nil && $0.expected.rows != nil }
    for table in sequential.prefix(30) {
      guard let planned = table.finalExpectedSampleSize else { continue }
      let metrics = table.metrics.map { ConfidenceZTest.Metric(nonInferiorityMargin: $0.nim, preference: $0.preference == nil ? .twoSided : .increase) }
      let looks = table.looks.map { arms in
        arms.map { arm in table.metrics.map { arm[$0.name]!.summary } }
      }
      let test = ConfidenceZTest(intervalSize: table.interval)
      var read = ConfidenceZTest.SequentialRead(test: test, metrics: metrics, finalExpectedSampleSize: planned)
      for day in looks.indices {
        let today = try read.look(looks[day])
        let whole = try test.compareSequentially(metrics: metrics, looks: Array(looks[...day]), finalExpectedSampleSize: planned)
        #expect(today == whole[day], "\(table.name) day \(day + 1)")
        if day > 0 {
          let total = Double(looks[day][0][0].n + looks[day][1][0].n)
          if total > planned { rescaled += 1 } else { extended += 1 }
        }
      }
    }
    #expect(rescaled > 10)
    #expect(extended > 80)
  }
}
