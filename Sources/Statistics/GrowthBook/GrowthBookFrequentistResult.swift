/// A frequentist comparison of a variation with the baseline, as GrowthBook's results page shows it.
public struct GrowthBookFrequentistResult: Sendable, Hashable {
  /// The lift (relative or absolute).
  public var expected: Double
  public var interval: Interval
  public var pValue: Double
  /// The lift's standard error, as gbstats' `uplift.stddev`.
  public var standardError: Double
  public var refusal: GrowthBookRefusal?

  static func refused(_ refusal: GrowthBookRefusal) -> Self {
    Self(expected: 0, interval: Interval(lower: 0, upper: 0), pValue: 1, standardError: 0, refusal: refusal)
  }
}

/// Why gbstats declines to compare two arms; it then reports no effect and a
/// p-value of 1 (or a chance to win of 0.5), and the page shows the reason.
public enum GrowthBookRefusal: String, Sendable, Hashable, CaseIterable {
  /// The baseline's mean is 0 (for a relative lift) or below.
  case baselineZero = "ZERO_NEGATIVE_BASELINE_VARIATION"
  /// An arm's variance is 0 or negative.
  case zeroVariance = "ZERO_NEGATIVE_VARIANCE"
  /// An arm has no devices.
  case noUnits = "NO_UNITS_IN_VARIATION"
}
