/// A ratio metric over the devices a variant counts: its numerator's and
/// denominator's means and variances per device and their covariance, from
/// which the delta method takes the ratio's variance.
public struct RatioSummary: Hashable, Sendable {
  public var name: String
  public var n: Int
  public var numeratorMean: Double?
  public var numeratorVariance: Double?
  public var denominatorMean: Double?
  public var denominatorVariance: Double?
  public var covariance: Double?
  /// The ratio the scenario gives the variant over the baseline's, less 1;
  /// `nil` for real data.
  public var trueLift: Double?

  public init(
    name: String, n: Int, numeratorMean: Double?, numeratorVariance: Double?, denominatorMean: Double?,
    denominatorVariance: Double?, covariance: Double?, trueLift: Double?
  ) {
    self.name = name
    self.n = n
    self.numeratorMean = numeratorMean
    self.numeratorVariance = numeratorVariance
    self.denominatorMean = denominatorMean
    self.denominatorVariance = denominatorVariance
    self.covariance = covariance
    self.trueLift = trueLift
  }

  /// Σ numerator / Σ denominator, or `nil` without devices or with a
  /// denominator summing to 0.
  public var ratio: Double? {
    guard let numeratorMean, let denominatorMean, denominatorMean != 0 else { return nil }
    return numeratorMean / denominatorMean
  }
}
