import _CGSL

/// The outcome of a significance test: a statistic, its degrees of freedom
/// where the test has them, and a two-sided p-value.
///
/// A value that cannot be computed for the input (an arm with no devices, a
/// variance of 0 on both sides) is `nil`, never NaN.
public struct TestResult: Hashable, Sendable {
  public var statistic: Double?
  public var degreesOfFreedom: Double?
  public var pValue: Double?

  public init(statistic: Double?, degreesOfFreedom: Double? = nil, pValue: Double?) {
    self.statistic = statistic.flatMap { $0.isFinite ? $0 : nil }
    self.degreesOfFreedom = degreesOfFreedom
    self.pValue = pValue.flatMap { $0.isNaN ? nil : min(max($0, 0), 1) }
  }

  /// Nothing computable.
  public static let notComputable = TestResult(statistic: nil, pValue: nil)
}

/// A two-sided interval.
public struct Interval: Hashable, Sendable {
  public var lower: Double
  public var upper: Double

  public init(lower: Double, upper: Double) {
    self.lower = lower
    self.upper = upper
  }
}

/// The normal quantile for a two-sided interval at `confidence`, e.g. 1.96 for 0.95.
func twoSidedCriticalValue(_ confidence: Double) -> Double {
  GSL.value { gsl_cdf_ugaussian_Qinv((1 - confidence) / 2) }
}
