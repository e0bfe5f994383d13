/// One group's ratio of two sums, Σy/Σx over its units (revenue per session:
/// revenue and sessions summed over devices), from the two values' means,
/// variances and covariance per unit. Its estimate is normal by the delta
/// method (Deng, Knoblich and Lu, "Applying the delta method in metric
/// analytics", KDD 2018), and groups are independent, so `NormalEstimate`
/// tests and compares ratios.
public struct RatioSample: Hashable, Sendable {
  public var count: Int
  public var numeratorMean: Double
  public var numeratorVariance: Double
  public var denominatorMean: Double
  public var denominatorVariance: Double
  /// The sample covariance of numerator and denominator (divided by n − 1).
  public var covariance: Double

  public init(
    count: Int, numeratorMean: Double, numeratorVariance: Double, denominatorMean: Double, denominatorVariance: Double,
    covariance: Double
  ) {
    self.count = count
    self.numeratorMean = numeratorMean
    self.numeratorVariance = numeratorVariance
    self.denominatorMean = denominatorMean
    self.denominatorVariance = denominatorVariance
    self.covariance = covariance
  }

  /// R = ȳ/x̄, and the variance of its estimate by the delta method,
  /// (s_y² − 2R·s_xy + R²·s_x²)/(n·x̄²): the variance of the mean of each unit's
  /// linearized value (y − R·x)/x̄. The units, not the sessions, are
  /// independent, so the covariance term is what a per-session variance
  /// would miss. Where every unit has the same ratio the three terms cancel,
  /// and what rounding leaves of them (below 10⁻¹² of their size) counts as
  /// the 0 it stands for. `nil` below two units or with a denominator mean
  /// not above 0.
  public var estimate: NormalEstimate? {
    guard count > 1, denominatorMean > 0 else { return nil }
    let ratio = numeratorMean / denominatorMean
    let scale = numeratorVariance + ratio * ratio * denominatorVariance
    let spread = numeratorVariance - 2 * ratio * covariance + ratio * ratio * denominatorVariance
    return NormalEstimate(
      value: ratio, variance: spread > 1e-12 * scale ? spread / (Double(count) * denominatorMean * denominatorMean) : 0)
  }
}
