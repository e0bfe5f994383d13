/// What a comparison's regression adjustment (CUPED) did: the slope it
/// removed, how much of the estimate's variance went with it, and the
/// comparison as it stood before.
public struct CovariateAdjustment: Hashable, Sendable {
  /// The outcome removed per unit of covariate, fitted once over every
  /// variant of the experiment.
  public var theta: Double
  /// The share of the variance of the difference of means the adjustment
  /// removed: 1 − (v₁*/n₁ + v₂*/n₂)/(v₁/n₁ + v₂/n₂); `nil` where neither
  /// outcome varies.
  public var varianceReduction: Double?
  /// The unadjusted test, lift and lift interval.
  public var unadjusted: TestSummary
  public var unadjustedLift: Double?
  public var unadjustedLiftInterval: Estimate?

  public init(
    theta: Double, varianceReduction: Double?, unadjusted: TestSummary, unadjustedLift: Double?,
    unadjustedLiftInterval: Estimate?
  ) {
    self.theta = theta
    self.varianceReduction = varianceReduction
    self.unadjusted = unadjusted
    self.unadjustedLift = unadjustedLift
    self.unadjustedLiftInterval = unadjustedLiftInterval
  }
}
