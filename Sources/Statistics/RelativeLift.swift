/// The relative lift of a treatment mean over a control mean, m₂/m₁ − 1,
/// with a confidence interval by the delta method.
///
/// With R = m₂/m₁ and the variances of the means s₁²/n₁ and s₂²/n₂,
/// Var(R) ≈ (s₂²/n₂)/m₁² + m₂²(s₁²/n₁)/m₁⁴, and the interval is
/// lift ± z·√Var(R). Not computable when the control mean is 0 or a group has
/// fewer than two values.
public struct RelativeLift: Hashable, Sendable {
  public let lift: Double
  public let interval: Interval
  /// The standard error of the lift.
  public let standardError: Double

  public init?(
    control: SampleSummary, treatment: SampleSummary, confidence: Double
  ) {
    guard control.count > 1, treatment.count > 1, control.mean != 0 else { return nil }
    let m1 = control.mean, m2 = treatment.mean
    let meanVariance1 = control.variance / Double(control.count)
    let meanVariance2 = treatment.variance / Double(treatment.count)
    let variance = meanVariance2 / (m1 * m1) + m2 * m2 * meanVariance1 / (m1 * m1 * m1 * m1)
    lift = m2 / m1 - 1
    standardError = variance.squareRoot()
    let half = twoSidedCriticalValue(confidence) * standardError
    interval = Interval(lower: lift - half, upper: lift + half)
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
