import Foundation
import Statistics
import Testing

/// Quantiles of amounts against numpy's inverted-CDF quantile and scipy's
/// quantile_test (scripts/make_fixtures.py), and their comparisons against the
/// z test and lift intervals computed there from the same intervals.
@Suite struct SortedSampleTests {
  let reference: ReferenceCases

  init() throws {
    reference = try ReferenceCases()
  }

  private func sample(_ c: ReferenceCases.Case) -> SortedSample {
    SortedSample(values: c.doubles("values"), counts: c.ints("counts"))
  }

  @Test func quantilesAndIntervalsAgreeWithScipy() throws {
    let cases = try reference.cases("quantileEstimates")
    #expect(cases.count == 9)
    for c in cases {
      let sample = sample(c), q = c.double("q")
      #expect(sample.quantile(q) == c.double("quantile"), "\(c.values["name"]!)")
      let interval = sample.interval(q, confidence: 0.95)
      #expect(interval?.lower == c.optionalDouble("lower"), "\(c.values["name"]!)")
      #expect(interval?.upper == c.optionalDouble("upper"), "\(c.values["name"]!)")
    }
  }

  @Test func comparisonsAgreeWithTheirReference() throws {
    let cases = try reference.cases("quantileComparisons")
    #expect(cases.count == 2)
    for c in cases {
      let groups = (c.values["groups"] as! [[String: Any]]).map(ReferenceCases.Case.init)
      let estimates = try groups.map { group in
        try #require(sample(group).estimate(group.double("q"), confidence: 0.95))
      }
      for (estimate, variance) in zip(estimates, c.doubles("variances")) {
        #expect(agrees(estimate.variance, variance, relative: 1e-12))
      }
      let test = NormalEstimate.test(control: estimates[0], treatment: estimates[1])
      #expect(agrees(test.statistic, c.double("statistic"), relative: 1e-10))
      #expect(agrees(test.pValue, c.double("pValue"), relative: 1e-8))
      let log = try #require(NormalEstimate.lift(control: estimates[0], treatment: estimates[1], confidence: 0.95, logScale: true))
      #expect(agrees(log.lift, c.double("lift"), relative: 1e-12))
      #expect(agrees(log.interval.lower, c.double("lower"), relative: 1e-9))
      #expect(agrees(log.interval.upper, c.double("upper"), relative: 1e-9))
      let delta = try #require(NormalEstimate.lift(control: estimates[0], treatment: estimates[1], confidence: 0.95, logScale: false))
      #expect(agrees(delta.interval.lower, c.double("deltaLower"), relative: 1e-9))
      #expect(agrees(delta.interval.upper, c.double("deltaUpper"), relative: 1e-9))
      let omnibus = NormalEstimate.omnibus(estimates)
      #expect(agrees(omnibus.statistic, c.double("omnibus"), relative: 1e-9))
      #expect(agrees(omnibus.pValue, c.double("omnibusPValue"), relative: 1e-8))
    }
  }

  /// No values, and a sample whose interval is a single value: the estimate
  /// exists, its variance is 0, and a test between two such is undefined.
  @Test func edgeCases() throws {
    let empty = SortedSample(values: [], counts: [])
    #expect(empty.count == 0 && empty.quantile(0.5) == nil && empty.interval(0.5, confidence: 0.95) == nil)
    let constant = SortedSample(values: [7], counts: [200])
    let estimate = try #require(constant.estimate(0.5, confidence: 0.95))
    #expect(estimate == NormalEstimate(value: 7, variance: 0))
    #expect(NormalEstimate.test(control: estimate, treatment: estimate) == .notComputable)
    #expect(estimate.interval(confidence: 0.95) == nil)
  }

  /// Values that stand for ranges (histogram buckets): the interval runs
  /// from the lower edge of the lower rank's range to the upper edge of the
  /// upper rank's: for n = 200 at the median, ranks 86 and 115, as scipy's
  /// `quantile_test(numpy.arange(200.0), q=100, p=0.5)` gives them (85 and
  /// 114 counted from 0). A spread inside one bucket no longer gives a
  /// zero-width interval.
  @Test func rangesBoundTheIntervalByTheirEdges() throws {
    let exact = SortedSample(values: [9.99, 10.01], counts: [100, 100])
    let exactInterval = try #require(exact.interval(0.5, confidence: 0.95))
    #expect(exactInterval == Interval(lower: 9.99, upper: 10.01))
    let bucketed = SortedSample(values: [10], counts: [200], lowerEdges: [9.96], upperEdges: [10.04])
    let interval = try #require(bucketed.interval(0.5, confidence: 0.95))
    #expect(interval == Interval(lower: 9.96, upper: 10.04))
    #expect(bucketed.quantile(0.5) == 10)
    let estimate = try #require(bucketed.estimate(0.5, confidence: 0.95))
    let z = 1.959963984540054
    #expect(abs(estimate.variance - pow(0.08 / (2 * z), 2)) < 1e-15)
    // The edges of the ranks the interval takes, not of their neighbours.
    let spread = SortedSample(
      values: [1, 2, 3], counts: [90, 20, 90], lowerEdges: [0.5, 1.9, 2.9], upperEdges: [1.1, 2.1, 3.5])
    #expect(spread.interval(0.5, confidence: 0.95) == Interval(lower: 0.5, upper: 3.5))
    let narrow = SortedSample(
      values: [1, 2, 3], counts: [10, 180, 10], lowerEdges: [0.5, 1.9, 2.9], upperEdges: [1.1, 2.1, 3.5])
    #expect(narrow.interval(0.5, confidence: 0.95) == Interval(lower: 1.9, upper: 2.1))
  }
}
