import _CGSL
import Foundation

/// An estimate that is approximately normal with a variance known from the
/// sample: a ratio of sums by the delta method, a quantile with the spread of
/// its order statistics. Tests, lifts and intervals on such estimates do not
/// depend on what they estimate, so both kinds share them.
public struct NormalEstimate: Hashable, Sendable {
  public var value: Double
  /// The variance of the estimate (its standard error squared).
  public var variance: Double

  public init(value: Double, variance: Double) {
    self.value = value
    self.variance = variance
  }

  /// value ± z·√variance at `confidence`; `nil` where the variance is 0, since
  /// a zero-width interval would claim a certainty the sample does not give.
  public func interval(confidence: Double) -> Interval? {
    guard variance > 0 else { return nil }
    let half = twoSidedCriticalValue(confidence) * variance.squareRoot()
    return Interval(lower: value - half, upper: value + half)
  }

  /// z = (E₂ − E₁)/√(V₁ + V₂) for independent groups, two-sided p = 2Q(|z|).
  /// Not computable where both variances are 0.
  public static func test(control: NormalEstimate, treatment: NormalEstimate) -> TestResult {
    let variance = control.variance + treatment.variance
    guard variance > 0 else { return .notComputable }
    let z = (treatment.value - control.value) / variance.squareRoot()
    return TestResult(statistic: z, pValue: 2 * GSL.value { gsl_cdf_ugaussian_Q(abs(z)) })
  }

  /// The lift E₂/E₁ − 1 with its interval at `confidence`: on the log of
  /// E₂/E₁, exp(log(E₂/E₁) ± z·√(V₁/E₁² + V₂/E₂²)) − 1, which stays above
  /// −100%, or with `logScale` false the delta method's symmetric
  /// lift ± z·√(V₂/E₁² + E₂²V₁/E₁⁴). `nil` where an estimate is not above 0
  /// (log scale) or the control's is 0, or where both variances are 0.
  public static func lift(
    control: NormalEstimate, treatment: NormalEstimate, confidence: Double, logScale: Bool
  ) -> RelativeLift? {
    let e1 = control.value, e2 = treatment.value, v1 = control.variance, v2 = treatment.variance
    guard e1 != 0, v1 + v2 > 0 else { return nil }
    let z = twoSidedCriticalValue(confidence), lift = e2 / e1 - 1
    if logScale {
      guard e1 > 0, e2 > 0 else { return nil }
      let half = z * (v1 / (e1 * e1) + v2 / (e2 * e2)).squareRoot(), logRatio = log(e2 / e1)
      return RelativeLift(lift: lift, interval: Interval(lower: exp(logRatio - half) - 1, upper: exp(logRatio + half) - 1))
    }
    let half = z * (v2 / (e1 * e1) + e2 * e2 * v1 / (e1 * e1 * e1 * e1)).squareRoot()
    return RelativeLift(lift: lift, interval: Interval(lower: lift - half, upper: lift + half))
  }

  /// The Wald test that every group estimates the same value:
  /// χ² = Σ wᵢ(Eᵢ − Ē)² with wᵢ = 1/Vᵢ and Ē = Σ wᵢEᵢ/Σ wᵢ, on k − 1 degrees of
  /// freedom, over the groups whose variance is above 0. Not computable with
  /// fewer than two such groups.
  public static func omnibus(_ groups: [NormalEstimate]) -> TestResult {
    let varying = groups.filter { $0.variance > 0 }
    guard varying.count >= 2 else { return .notComputable }
    let weights = varying.map { 1 / $0.variance }
    let pooled = zip(weights, varying).map { $0 * $1.value }.reduce(0, +) / weights.reduce(0, +)
    let statistic = zip(weights, varying).map { $0 * ($1.value - pooled) * ($1.value - pooled) }.reduce(0, +)
    let degrees = Double(varying.count - 1)
    return TestResult(
      statistic: statistic, degreesOfFreedom: degrees, pValue: GSL.value { gsl_cdf_chisq_Q(statistic, degrees) })
  }
}
