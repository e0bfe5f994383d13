/// A metric over the devices a variant counts under the scenario's attribution.
public struct MetricSummary: Hashable, Sendable {
  public var name: String
  public var isConversion: Bool
  public var n: Int
  /// Devices whose outcome was 1, for conversion metrics.
  public var conversions: Int?
  public var mean: Double?
  /// The sample variance (n − 1 in the denominator).
  public var variance: Double?
  /// The mean the devices would have had, had they been shown only this variant.
  public var trueMean: Double?
  /// The lift the scenario gives the variant over the baseline, averaged over
  /// segments by share and baseline rate; `nil` for real data.
  public var trueLift: Double?
  /// The pre-experiment covariate of the same devices, for a metric that has
  /// one: what the analysis adjusts the metric by (CUPED).
  public var covariate: CovariateSummary?
  /// An amount's skewness (g₁, the third central moment over the second's
  /// 3/2 power): how far its mean is from the normal the intervals assume.
  /// `nil` for a conversion, below three devices or with no spread.
  public var skewness: Double?

  public init(
    name: String,
    isConversion: Bool,
    n: Int,
    conversions: Int?,
    mean: Double?,
    variance: Double?,
    trueMean: Double?,
    trueLift: Double?
  ) {
    self.name = name
    self.isConversion = isConversion
    self.n = n
    self.conversions = conversions
    self.mean = mean
    self.variance = variance
    self.trueMean = trueMean
    self.trueLift = trueLift
  }
}

/// A covariate measured before the experiment over the devices of one
/// variant, and how it varies with their outcomes.
public struct CovariateSummary: Hashable, Sendable {
  public var mean: Double?
  /// The sample variance (n − 1 in the denominator).
  public var variance: Double?
  /// The sample covariance with the outcome (n − 1 in the denominator).
  public var covariance: Double?

  public init(mean: Double?, variance: Double?, covariance: Double?) {
    self.mean = mean
    self.variance = variance
    self.covariance = covariance
  }
}
