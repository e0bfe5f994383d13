/// One comparison's record over replications.
public struct ComparisonCalibration: Hashable, Sendable {
  public var variant: String
  public var trueLift: Double?
  /// How often the adjusted p-value was below alpha: the false-positive rate
  /// when the true lift is 0, the power otherwise.
  public var significantRate: Double
  /// How often the lift's interval held the true lift.
  public var coverage: Double?
  /// The mean of the estimated lifts: beside the true lift, the estimate's
  /// bias (a winsorized metric's, or a small sample's).
  public var meanLift: Double?
  /// With daily looks: how often some look's ordinary p-value fell below
  /// alpha (what peeking would have declared), and how often the always-valid one did.
  public var peekingSignificantRate: Double?
  public var alwaysValidSignificantRate: Double?
  /// With daily looks: how often some look crossed its O'Brien–Fleming or
  /// Pocock alpha-spending boundary.
  public var obrienFlemingSignificantRate: Double?
  public var pocockSignificantRate: Double?
  /// On a guardrail metric: how often the variant was shown safe. Where its
  /// true lift is the margin's loss, the false-safe rate: at most alpha.
  public var safeRate: Double?
  /// On a metric adjusted by its covariate (CUPED): how often the unadjusted
  /// p-value was below alpha, uncorrected, the rate the adjustment improves on.
  public var unadjustedSignificantRate: Double?
  /// On an amount: how often an arm was too small for its skewness
  /// (`SkewWarning`), and how often the interval held the truth when it was
  /// and when it was not; `nil` where never, or where the truth is unknown.
  public var skewWarningRate: Double?
  public var coverageWhenWarned: Double?
  public var coverageWhenNotWarned: Double?

  public init(
    variant: String, trueLift: Double?, significantRate: Double, coverage: Double?, meanLift: Double? = nil,
    peekingSignificantRate: Double?,
    alwaysValidSignificantRate: Double?, obrienFlemingSignificantRate: Double? = nil, pocockSignificantRate: Double? = nil,
    safeRate: Double? = nil, unadjustedSignificantRate: Double? = nil
  ) {
    self.variant = variant
    self.trueLift = trueLift
    self.significantRate = significantRate
    self.coverage = coverage
    self.meanLift = meanLift
    self.peekingSignificantRate = peekingSignificantRate
    self.alwaysValidSignificantRate = alwaysValidSignificantRate
    self.obrienFlemingSignificantRate = obrienFlemingSignificantRate
    self.pocockSignificantRate = pocockSignificantRate
    self.safeRate = safeRate
    self.unadjustedSignificantRate = unadjustedSignificantRate
  }
}
