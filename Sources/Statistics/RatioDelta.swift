import CGSL
import Foundation

/// One group's ratio of two sums, Σy/Σx over its units (revenue per session:
/// revenue and sessions summed over devices), from the two values' means,
/// variances and covariance per unit.
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
  public var estimate: (ratio: Double, variance: Double)? {
    guard count > 1, denominatorMean > 0 else { return nil }
    let ratio = numeratorMean / denominatorMean
    let scale = numeratorVariance + ratio * ratio * denominatorVariance
    let spread = numeratorVariance - 2 * ratio * covariance + ratio * ratio * denominatorVariance
    return (ratio, spread > 1e-12 * scale ? spread / (Double(count) * denominatorMean * denominatorMean) : 0)
  }
}

/// Tests and intervals on ratio metrics by the delta method (Deng, Knoblich
/// and Lu, "Applying the delta method in metric analytics", KDD 2018): each
/// group's ratio is asymptotically normal with the variance `RatioSample`
/// gives, and groups are independent.
public enum RatioDelta {
  /// z = (R₂ − R₁)/√(V₁ + V₂), two-sided p = 2Q(|z|). Not computable where a
  /// ratio is not, or where both variances are 0.
  public static func test(control: RatioSample, treatment: RatioSample) -> TestResult {
    guard let first = control.estimate, let second = treatment.estimate, first.variance + second.variance > 0 else {
      return .notComputable
    }
    let z = (second.ratio - first.ratio) / (first.variance + second.variance).squareRoot()
    return TestResult(statistic: z, pValue: 2 * GSL.value { gsl_cdf_ugaussian_Q(abs(z)) })
  }

  /// The lift R₂/R₁ − 1 with its interval at `confidence`: on the log of the
  /// ratio of ratios, exp(log(R₂/R₁) ± z·√(V₁/R₁² + V₂/R₂²)) − 1, which stays
  /// above −100%, or with `logScale` false the delta method's symmetric
  /// lift ± z·√(V₂/R₁² + R₂²V₁/R₁⁴). `nil` where a ratio is not above 0 (log
  /// scale) or the control's is 0, or where both variances are 0.
  public static func lift(control: RatioSample, treatment: RatioSample, confidence: Double, logScale: Bool) -> RelativeLift? {
    guard let first = control.estimate, let second = treatment.estimate, first.ratio != 0,
      first.variance + second.variance > 0
    else { return nil }
    let z = twoSidedCriticalValue(confidence), lift = second.ratio / first.ratio - 1
    if logScale {
      guard first.ratio > 0, second.ratio > 0 else { return nil }
      let half = z * (first.variance / (first.ratio * first.ratio) + second.variance / (second.ratio * second.ratio)).squareRoot()
      let logRatio = log(second.ratio / first.ratio)
      return RelativeLift(lift: lift, interval: Interval(lower: exp(logRatio - half) - 1, upper: exp(logRatio + half) - 1))
    }
    let r1 = first.ratio, r2 = second.ratio
    let half = z * (second.variance / (r1 * r1) + r2 * r2 * first.variance / (r1 * r1 * r1 * r1)).squareRoot()
    return RelativeLift(lift: lift, interval: Interval(lower: lift - half, upper: lift + half))
  }

  /// A group's ratio with its normal interval R ± z·√V at `confidence`.
  public static func interval(_ group: RatioSample, confidence: Double) -> Interval? {
    guard let estimate = group.estimate, estimate.variance > 0 else { return nil }
    let half = twoSidedCriticalValue(confidence) * estimate.variance.squareRoot()
    return Interval(lower: estimate.ratio - half, upper: estimate.ratio + half)
  }

  /// The omnibus Wald test that every group has the same ratio:
  /// χ² = Σ wᵢ(Rᵢ − R̄)² with wᵢ = 1/Vᵢ and R̄ = Σ wᵢRᵢ/Σ wᵢ, on k − 1 degrees of
  /// freedom, over the groups whose ratio has a variance above 0. Not
  /// computable with fewer than two such groups.
  public static func omnibus(_ groups: [RatioSample]) -> TestResult {
    let estimates = groups.compactMap(\.estimate).filter { $0.variance > 0 }
    guard estimates.count >= 2 else { return .notComputable }
    let weights = estimates.map { 1 / $0.variance }
    let pooled = zip(weights, estimates).map { $0 * $1.ratio }.reduce(0, +) / weights.reduce(0, +)
    let statistic = zip(weights, estimates).map { $0 * ($1.ratio - pooled) * ($1.ratio - pooled) }.reduce(0, +)
    let degrees = Double(estimates.count - 1)
    return TestResult(
      statistic: statistic, degreesOfFreedom: degrees, pValue: GSL.value { gsl_cdf_chisq_Q(statistic, degrees) })
  }
}
