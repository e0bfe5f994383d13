import Foundation
import Statistics
import Testing

/// CUPED against statsmodels' analysis of covariance and scipy's Welch test on
/// the residuals of raw samples (scripts/make_fixtures.py).
@Suite struct RegressionAdjustmentTests {
  let reference: ReferenceCases

  init() throws {
    reference = try ReferenceCases()
  }

  private func groups(_ c: ReferenceCases.Case) -> [CovariateSample] {
    c.doubleLists("groups").map { row in
      CovariateSample(
        outcome: SampleSummary(count: Int(row[0]), mean: row[1], variance: row[2]), covariateMean: row[3],
        covariateVariance: row[4], covariance: row[5])
    }
  }

  @Test func slopeAndAdjustedGroupsAreTheAnalysisOfCovariance() throws {
    let cases = try reference.cases("regressionAdjustment")
    #expect(cases.count == 8)
    for c in cases {
      let groups = groups(c)
      guard let expectedTheta = c.optionalDouble("theta") else {
        #expect(RegressionAdjustment(groups: groups) == nil, "\(c)")
        continue
      }
      let adjustment = try #require(RegressionAdjustment(groups: groups), "\(c)")
      #expect(agrees(adjustment.theta, expectedTheta, relative: 1e-9, absolute: 1e-12), "\(c)")
      #expect(agrees(adjustment.covariateMean, c.double("covariateMean"), relative: 1e-9, absolute: 1e-12), "\(c)")
      let adjusted = groups.map(adjustment.adjusted)
      for (actual, expected) in zip(adjusted, c.doubleLists("adjusted")) {
        #expect(actual.count == Int(expected[0]), "\(c)")
        #expect(agrees(actual.mean, expected[1], relative: 1e-9, absolute: 1e-9), "\(c)")
        #expect(agrees(actual.variance, expected[2], relative: 1e-7, absolute: 1e-12), "\(c)")
      }
      #expect(agrees(adjusted[1].mean - adjusted[0].mean, c.double("difference"), relative: 1e-8, absolute: 1e-12), "\(c)")
      let test = MeanTests.welch(control: adjusted[0], treatment: adjusted[1])
      #expect(agrees(test.statistic, c.optionalDouble("statistic"), relative: 1e-7), "\(c)")
      #expect(agrees(test.degreesOfFreedom, c.optionalDouble("df"), relative: 1e-7), "\(c)")
      #expect(agrees(test.pValue, c.optionalDouble("pValue"), relative: 1e-6, absolute: 1e-15), "\(c)")
      if let lift = c.optionalDouble("lift") {
        let interval = try #require(RelativeLift.logRatio(control: adjusted[0], treatment: adjusted[1], confidence: 0.95))
        #expect(agrees(interval.lift, lift, relative: 1e-8, absolute: 1e-12), "\(c)")
        #expect(agrees(interval.interval.lower, c.double("lower"), relative: 1e-7, absolute: 1e-12), "\(c)")
        #expect(agrees(interval.interval.upper, c.double("upper"), relative: 1e-7, absolute: 1e-12), "\(c)")
      }
    }
  }

  /// With correlation ρ in every group the residual variance is (1 − ρ²) of
  /// the outcome's: the reduction CUPED promises.
  @Test func varianceFallsByTheSquaredCorrelation() throws {
    let rho = 0.6, outcomeVariance = 25.0, covariateVariance = 4.0
    let covariance = rho * (outcomeVariance * covariateVariance).squareRoot()
    let group = CovariateSample(
      outcome: SampleSummary(count: 1000, mean: 10, variance: outcomeVariance), covariateMean: 1,
      covariateVariance: covariateVariance, covariance: covariance)
    let adjustment = try #require(RegressionAdjustment(groups: [group, group]))
    #expect(abs(adjustment.theta - covariance / covariateVariance) < 1e-12)
    #expect(abs(try #require(adjustment.varianceReduction(group)) - rho * rho) < 1e-12)
    #expect(abs(adjustment.adjusted(group).variance - outcomeVariance * (1 - rho * rho)) < 1e-9)
  }

  /// Empty groups and groups of one carry no slope; with nothing else there is
  /// no adjustment, and a constant outcome has no variance to reduce.
  @Test func edgeCases() {
    let single = CovariateSample(
      outcome: SampleSummary(count: 1, mean: 3, variance: 0), covariateMean: 2, covariateVariance: 0, covariance: 0)
    let empty = CovariateSample(
      outcome: SampleSummary(count: 0, mean: 0, variance: 0), covariateMean: 0, covariateVariance: 0, covariance: 0)
    #expect(RegressionAdjustment(groups: []) == nil)
    #expect(RegressionAdjustment(groups: [single, empty]) == nil)
    let varied = CovariateSample(
      outcome: SampleSummary(count: 10, mean: 1, variance: 0), covariateMean: 0, covariateVariance: 2, covariance: 0)
    let adjustment = RegressionAdjustment(groups: [varied, empty])
    #expect(adjustment?.theta == 0)
    #expect(adjustment?.varianceReduction(varied) == nil)
  }
}
