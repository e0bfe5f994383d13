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
}
