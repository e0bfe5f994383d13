import Foundation
import Statistics
import Testing

/// Ratio metrics against scipy on raw samples (scripts/make_fixtures.py),
/// whose variances come from each unit's linearized value rather than from
/// the moments the bench uses.
@Suite struct RatioSampleTests {
  let reference: ReferenceCases

  init() throws {
    reference = try ReferenceCases()
  }

  private func groups(_ c: ReferenceCases.Case) -> [RatioSample] {
    c.doubleLists("groups").map { row in
      RatioSample(
        count: Int(row[0]), numeratorMean: row[1], numeratorVariance: row[2], denominatorMean: row[3],
        denominatorVariance: row[4], covariance: row[5])
    }
  }

  @Test func ratiosTestsAndIntervalsAgreeWithTheLinearizedUnits() throws {
    let cases = try reference.cases("ratioDelta")
    #expect(cases.count == 5)
    for c in cases {
      let groups = groups(c)
      for (group, (ratio, variance)) in zip(groups, zip(c.doubles("ratios"), c.doubles("variances"))) {
        let estimate = try #require(group.estimate, "\(c)")
        #expect(agrees(estimate.value, ratio, relative: 1e-12), "\(c)")
        #expect(agrees(estimate.variance, variance, relative: 1e-7, absolute: 1e-15), "\(c)")
      }
      let estimates = try groups.map { try #require($0.estimate, "\(c)") }
      let test = NormalEstimate.test(control: estimates[0], treatment: estimates[1])
      #expect(agrees(test.statistic, c.optionalDouble("statistic"), relative: 1e-7), "\(c)")
      #expect(agrees(test.pValue, c.optionalDouble("pValue"), relative: 1e-6, absolute: 1e-15), "\(c)")
      if let lower = c.optionalDouble("lower") {
        let log = try #require(NormalEstimate.lift(control: estimates[0], treatment: estimates[1], confidence: 0.95, logScale: true))
        #expect(agrees(log.lift, c.double("lift"), relative: 1e-10, absolute: 1e-14), "\(c)")
        #expect(agrees(log.interval.lower, lower, relative: 1e-7, absolute: 1e-12), "\(c)")
        #expect(agrees(log.interval.upper, c.double("upper"), relative: 1e-7, absolute: 1e-12), "\(c)")
        let delta = try #require(NormalEstimate.lift(control: estimates[0], treatment: estimates[1], confidence: 0.95, logScale: false))
        #expect(agrees(delta.interval.lower, c.double("deltaLower"), relative: 1e-7, absolute: 1e-12), "\(c)")
        #expect(agrees(delta.interval.upper, c.double("deltaUpper"), relative: 1e-7, absolute: 1e-12), "\(c)")
        let omnibus = NormalEstimate.omnibus(estimates)
        #expect(agrees(omnibus.statistic, c.double("omnibus"), relative: 1e-7, absolute: 1e-12), "\(c)")
        #expect(agrees(omnibus.pValue, c.double("omnibusPValue"), relative: 1e-6, absolute: 1e-15), "\(c)")
        #expect(omnibus.degreesOfFreedom == Double(groups.count - 1))
      }
    }
  }

  /// One unit, a denominator of 0, and a ratio that never varies.
  @Test func edgeCases() throws {
    let one = RatioSample(count: 1, numeratorMean: 2, numeratorVariance: 0, denominatorMean: 1, denominatorVariance: 0, covariance: 0)
    let zero = RatioSample(count: 5, numeratorMean: 0, numeratorVariance: 0, denominatorMean: 0, denominatorVariance: 0, covariance: 0)
    #expect(one.estimate == nil && zero.estimate == nil)
    let constant = RatioSample(
      count: 4, numeratorMean: 5, numeratorVariance: 5 / 3, denominatorMean: 2.5, denominatorVariance: 5 / 12, covariance: 5 / 6)
    let estimate = try #require(constant.estimate)
    #expect(estimate == NormalEstimate(value: 2, variance: 0))
    #expect(NormalEstimate.test(control: estimate, treatment: estimate) == .notComputable)
    #expect(NormalEstimate.lift(control: estimate, treatment: estimate, confidence: 0.95, logScale: true) == nil)
    #expect(estimate.interval(confidence: 0.95) == nil)
    #expect(NormalEstimate.omnibus([estimate, estimate]) == .notComputable)
  }
}
