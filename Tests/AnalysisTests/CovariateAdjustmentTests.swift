import Analysis
import Results
import ScenarioFormat
import Statistics
import Testing

/// The analyzer's use of a metric's covariate (CUPED): which numbers it
/// adjusts, which it leaves, and when it stands back.
@Suite struct CovariateAdjustmentTests {
  /// An amount with its covariate: n devices of mean `mean` and variance 25,
  /// a covariate of mean `covariateMean` and variance 1, covariance `covariance`.
  private func variant(_ name: String, n: Int, mean: Double, covariateMean: Double, covariance: Double = 3.5) -> VariantResult {
    var summary = MetricSummary(
      name: "revenue", isConversion: false, n: n, conversions: nil, mean: mean, variance: 25, trueMean: nil, trueLift: 0)
    summary.covariate = CovariateSummary(mean: covariateMean, variance: 1, covariance: covariance)
    return VariantResult(
      name: name, weight: 1, exposed: n, contaminated: 0, firstExposed: n, expectedFirstExposed: nil, metrics: [summary])
  }

  private func group(n: Int, mean: Double, covariateMean: Double, covariance: Double = 3.5) -> CovariateSample {
    CovariateSample(
      outcome: SampleSummary(count: n, mean: mean, variance: 25), covariateMean: covariateMean, covariateVariance: 1,
      covariance: covariance)
  }

  @Test func theTestLiftAndPowerAreAdjusted() throws {
    let analysed = ExperimentAnalyzer(settings: settings(effect: 0.05)).analyze(experiment([
      variant("Classic", n: 1000, mean: 10, covariateMean: 0.02), variant("Redesign", n: 1000, mean: 10.6, covariateMean: 0.1),
    ]))
    let analysis = try #require(analysed.analysis.first), comparison = try #require(analysis.comparisons.first)
    let fit = try #require(RegressionAdjustment(groups: [
      group(n: 1000, mean: 10, covariateMean: 0.02), group(n: 1000, mean: 10.6, covariateMean: 0.1),
    ]))
    #expect(fit.theta == 3.5)
    let control = fit.adjusted(group(n: 1000, mean: 10, covariateMean: 0.02))
    let treated = fit.adjusted(group(n: 1000, mean: 10.6, covariateMean: 0.1))
    // 10 − 3.5 × (0.02 − 0.06) and 10.6 − 3.5 × (0.1 − 0.06); residual variance 25 − 2 × 3.5 × 3.5 + 3.5².
    #expect(abs(control.mean - 10.14) < 1e-12 && abs(treated.mean - 10.46) < 1e-12)
    #expect(abs(control.variance - 12.75) < 1e-12)
    #expect(comparison.test.test == "cuped-welch-t")
    #expect(comparison.test == {
      let welch = MeanTests.welch(control: control, treatment: treated)
      return TestSummary(test: "cuped-welch-t", statistic: welch.statistic, degreesOfFreedom: welch.degreesOfFreedom, pValue: welch.pValue)
    }())
    let lift = try #require(RelativeLift.logRatio(control: control, treatment: treated, confidence: 0.95))
    #expect(comparison.lift == lift.lift)
    #expect(comparison.liftInterval?.lower == lift.interval.lower && comparison.liftInterval?.upper == lift.interval.upper)
    #expect(abs(try #require(comparison.meanDifference) - 0.32) < 1e-12)
    let adjustment = try #require(comparison.covariateAdjustment)
    #expect(adjustment.theta == 3.5)
    #expect(abs(try #require(adjustment.varianceReduction) - 0.49) < 1e-12)
    #expect(adjustment.unadjusted.test == "welch-t")
    #expect(adjustment.unadjusted == {
      let welch = MeanTests.welch(
        control: SampleSummary(count: 1000, mean: 10, variance: 25), treatment: SampleSummary(count: 1000, mean: 10.6, variance: 25))
      return TestSummary(test: "welch-t", statistic: welch.statistic, degreesOfFreedom: welch.degreesOfFreedom, pValue: welch.pValue)
    }())
    #expect(abs(try #require(adjustment.unadjustedLift) - 0.06) < 1e-12)
    // Power from the residual variance: 2 (z₀.₉₇₅ + z₀.₈)² × 12.75 / 0.5² = 801 devices an arm, 51% of
    // the 1,570 the unadjusted variance of 25 asks for.
    let power = try #require(analysis.power)
    #expect(power.requiredPerVariant == 801)
    #expect(Power.sampleSize(difference: 0.5, standardDeviation: 5, alpha: 0.05, power: 0.8) == 1570)
  }

  /// A variant without the covariate, a covariate that does not vary, and
  /// outcomes that do not vary leave the comparison as it was.
  @Test func itStandsBackWhereItCannotAdjust() throws {
    var missing = variant("Redesign", n: 1000, mean: 10.6, covariateMean: 0.1)
    missing.metrics[0].covariate = nil
    var constant = [variant("Classic", n: 1000, mean: 10, covariateMean: 0), variant("Redesign", n: 1000, mean: 10.6, covariateMean: 0)]
    for index in constant.indices { constant[index].metrics[0].covariate = CovariateSummary(mean: 0, variance: 0, covariance: 0) }
    var flat = [variant("Classic", n: 50, mean: 1, covariateMean: 0, covariance: 0), variant("Redesign", n: 50, mean: 1, covariateMean: 0.2, covariance: 0)]
    for index in flat.indices { flat[index].metrics[0].variance = 0 }
    for variants in [[variant("Classic", n: 1000, mean: 10, covariateMean: 0), missing], constant, flat] {
      let analysed = ExperimentAnalyzer(settings: settings()).analyze(experiment(variants))
      let comparison = try #require(analysed.analysis.first?.comparisons.first)
      #expect(comparison.covariateAdjustment == nil)
      #expect(comparison.test.test == "welch-t")
    }
  }
}
