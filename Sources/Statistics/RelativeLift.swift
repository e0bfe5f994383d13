import _CGSL
import Foundation

/// The relative lift of a treatment mean over a control mean, m₂/m₁ − 1,
/// with a confidence interval by one of three methods.
///
/// A ratio of non-negative means lies in [0, ∞), so its lift lies in
/// [−100%, ∞). The symmetric delta-method interval ignores that and collapses
/// to a point when a variance is 0; the two ratio intervals respect the range:
/// - `wilsonRatio`, for rates: MOVER-R (Donner and Zou, 2012; Newcombe, 2016),
///   which recovers the ratio's limits from each rate's Wilson interval, so it
///   keeps a width when every device converts or none does;
/// - `logRatio`, for amounts: log(m₂/m₁) ± t·√(s₁²/(n₁m₁²) + s₂²/(n₂m₂²)), with
///   Welch–Satterthwaite degrees of freedom on that scale, exponentiated.
public struct RelativeLift: Hashable, Sendable {
  public let lift: Double
  public let interval: Interval

  init(lift: Double, interval: Interval) {
    self.lift = lift
    self.interval = interval
  }

  /// The delta method: with R = m₂/m₁ and the variances of the means s₁²/n₁
  /// and s₂²/n₂, Var(R) ≈ (s₂²/n₂)/m₁² + m₂²(s₁²/n₁)/m₁⁴, and the interval is
  /// lift ± z·√Var(R). Not computable when the control mean is 0 or a group has
  /// fewer than two values.
  public init?(control: SampleSummary, treatment: SampleSummary, confidence: Double) {
    guard control.count > 1, treatment.count > 1, control.mean != 0 else { return nil }
    let m1 = control.mean, m2 = treatment.mean
    let meanVariance1 = control.variance / Double(control.count)
    let meanVariance2 = treatment.variance / Double(treatment.count)
    let variance = meanVariance2 / (m1 * m1) + m2 * m2 * meanVariance1 / (m1 * m1 * m1 * m1)
    lift = m2 / m1 - 1
    let half = twoSidedCriticalValue(confidence) * variance.squareRoot()
    interval = Interval(lower: lift - half, upper: lift + half)
  }

  /// The lift of one rate over another with the MOVER-R interval from the
  /// rates' Wilson intervals. `nil` when the control rate is 0 (the ratio is
  /// unbounded) or a group is empty.
  public static func wilsonRatio(
    controlSuccesses x1: Int, controlTrials n1: Int, treatmentSuccesses x2: Int, treatmentTrials n2: Int,
    confidence: Double
  ) -> RelativeLift? {
    guard x1 > 0,
      let control = ProportionTests.wilsonInterval(successes: x1, trials: n1, confidence: confidence),
      let treatment = ProportionTests.wilsonInterval(successes: x2, trials: n2, confidence: confidence)
    else { return nil }
    let p1 = Double(x1) / Double(n1), p2 = Double(x2) / Double(n2)
    // The ratio is θ₂/θ₁: numerator the treatment, denominator the control.
    let product = p1 * p2
    let lowerSpread = treatment.lower * control.upper * (2 * p2 - treatment.lower) * (2 * p1 - control.upper)
    let upperSpread = treatment.upper * control.lower * (2 * p2 - treatment.upper) * (2 * p1 - control.lower)
    let lowerDenominator = control.upper * (2 * p1 - control.upper)
    let upperDenominator = control.lower * (2 * p1 - control.lower)
    guard lowerDenominator != 0, upperDenominator > 0 else { return nil }
    let lower = (product - max(product * product - lowerSpread, 0).squareRoot()) / lowerDenominator
    let upper = (product + max(product * product - upperSpread, 0).squareRoot()) / upperDenominator
    return RelativeLift(lift: p2 / p1 - 1, interval: Interval(lower: max(lower, 0) - 1, upper: upper - 1))
  }

  /// The lift of one mean over another with the interval on the log of their
  /// ratio. `nil` when a mean is not above 0, a group has fewer than two
  /// values, or both variances are 0 (the interval would be a point that
  /// claims a certainty the sample does not have).
  public static func logRatio(control: SampleSummary, treatment: SampleSummary, confidence: Double) -> RelativeLift? {
    guard control.count > 1, treatment.count > 1, control.mean > 0, treatment.mean > 0 else { return nil }
    let a1 = control.variance / (Double(control.count) * control.mean * control.mean)
    let a2 = treatment.variance / (Double(treatment.count) * treatment.mean * treatment.mean)
    guard a1 + a2 > 0 else { return nil }
    let degrees = (a1 + a2) * (a1 + a2) / (a1 * a1 / Double(control.count - 1) + a2 * a2 / Double(treatment.count - 1))
    let t = GSL.value { gsl_cdf_tdist_Qinv((1 - confidence) / 2, degrees) }
    let logRatio = log(treatment.mean / control.mean)
    let half = t * (a1 + a2).squareRoot()
    return RelativeLift(
      lift: treatment.mean / control.mean - 1,
      interval: Interval(lower: exp(logRatio - half) - 1, upper: exp(logRatio + half) - 1))
  }
}

/// A sample described by its size, mean and sample variance (n − 1).
public struct SampleSummary: Hashable, Sendable {
  public var count: Int
  public var mean: Double
  public var variance: Double

  public init(count: Int, mean: Double, variance: Double) {
    self.count = count
    self.mean = mean
    self.variance = variance
  }

  /// The summary of `successes` out of `trials` 0/1 outcomes.
  public init(successes: Int, trials: Int) {
    count = trials
    mean = trials > 0 ? Double(successes) / Double(trials) : 0
    variance = trials > 1 ? Double(successes) * Double(trials - successes) / (Double(trials) * Double(trials - 1)) : 0
  }
}
