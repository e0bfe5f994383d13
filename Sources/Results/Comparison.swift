/// One variant against the baseline on one metric.
public struct Comparison: Hashable, Sendable {
  public var variant: String
  public var baseline: String
  public var test: TestSummary
  /// The p-value after the scenario's correction over the experiment's comparisons.
  public var adjustedPValue: Double?
  /// The absolute difference of rates (treatment − baseline) and its Newcombe
  /// interval, for conversion metrics.
  public var difference: Estimate?
  /// The relative lift (treatment mean / baseline mean − 1) and its interval.
  public var lift: Double?
  public var liftInterval: (lower: Double, upper: Double)?
  /// The treatment mean minus the baseline mean: what a winner is decided on,
  /// since it exists when the relative lift does not (a baseline of 0).
  public var meanDifference: Double?
  /// The baseline's mean is 0 and the treatment's is above it: the relative
  /// lift is unbounded rather than unknown.
  public var liftIsUnbounded = false
  /// On a guardrail metric: the one-sided test that the variant loses less
  /// than the margin.
  public var nonInferiority: NonInferiorityResult?
  /// P(variant > baseline): Beta-Binomial for conversions, normal for amounts.
  public var probabilityToBeatBaseline: Double?
  /// The expected loss of choosing the variant over the baseline.
  public var expectedLoss: Double?
  /// The lift the scenario gives the variant, when known.
  public var trueLift: Double?
  /// The Mann–Whitney U test on the raw outcomes of a continuous metric, when they are at hand.
  public var rankTest: TestSummary?
  /// The variant or the baseline has fewer devices than the analysis's
  /// minimum: the comparison carries its point estimates but no p-value,
  /// interval or chance to beat the baseline.
  public var tooFewDevices = false
  /// On a metric with a pre-experiment covariate: the adjustment (CUPED)
  /// that `test`, the lift, its interval and `meanDifference` carry, and the
  /// comparison without it.
  public var covariateAdjustment: CovariateAdjustment?
  /// The standard error of `meanDifference`, from which the design
  /// analysis of a significant result works.
  public var standardError: Double?
  /// What to do with the variant on this metric.
  public var decision: Decision = .inconclusive(devicesNeeded: nil)
  /// On an amount: set where an arm is too small for its skewness, so that
  /// the interval and the decision may not hold their level.
  public var skewWarning: SkewWarning?
  /// For a significant result: its power, type S and type M errors at the
  /// planned effect.
  public var designErrors: DesignErrors?
  /// Each daily look, when the scenario takes them.
  public var looks: [Look]
  /// The lift and its interval on the devices first exposed by the end of
  /// each day; `nil` on days it cannot be computed.
  public var dailyLift: [Estimate?]

  public init(
    variant: String, baseline: String, test: TestSummary, adjustedPValue: Double?, difference: Estimate?, lift: Double?,
    liftInterval: (lower: Double, upper: Double)?, probabilityToBeatBaseline: Double?, expectedLoss: Double?,
    trueLift: Double?, looks: [Look], dailyLift: [Estimate?]
  ) {
    self.variant = variant
    self.baseline = baseline
    self.test = test
    self.adjustedPValue = adjustedPValue
    self.difference = difference
    self.lift = lift
    self.liftInterval = liftInterval
    self.probabilityToBeatBaseline = probabilityToBeatBaseline
    self.expectedLoss = expectedLoss
    self.trueLift = trueLift
    self.looks = looks
    self.dailyLift = dailyLift
  }

  public static func == (lhs: Comparison, rhs: Comparison) -> Bool {
    lhs.variant == rhs.variant && lhs.baseline == rhs.baseline && lhs.test == rhs.test
      && lhs.adjustedPValue == rhs.adjustedPValue && lhs.difference == rhs.difference && lhs.lift == rhs.lift
      && lhs.liftInterval?.lower == rhs.liftInterval?.lower && lhs.liftInterval?.upper == rhs.liftInterval?.upper
      && lhs.probabilityToBeatBaseline == rhs.probabilityToBeatBaseline && lhs.expectedLoss == rhs.expectedLoss
      && lhs.trueLift == rhs.trueLift && lhs.looks == rhs.looks && lhs.dailyLift == rhs.dailyLift
      && lhs.rankTest == rhs.rankTest && lhs.meanDifference == rhs.meanDifference
      && lhs.liftIsUnbounded == rhs.liftIsUnbounded && lhs.nonInferiority == rhs.nonInferiority
      && lhs.covariateAdjustment == rhs.covariateAdjustment && lhs.tooFewDevices == rhs.tooFewDevices
      && lhs.standardError == rhs.standardError && lhs.decision == rhs.decision && lhs.designErrors == rhs.designErrors
      && lhs.skewWarning == rhs.skewWarning
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(variant)
    hasher.combine(test)
    hasher.combine(lift)
  }
}
