import _CGSL

/// Tests on continuous outcomes summarised by size, mean and sample variance.
public enum MeanTests {
  /// Welch's t-test of treatment against control, with the Welch–Satterthwaite
  /// degrees of freedom; two-sided.
  ///
  /// t = (m₂ − m₁)/√(s₁²/n₁ + s₂²/n₂); df = (s₁²/n₁ + s₂²/n₂)² /
  /// ((s₁²/n₁)²/(n₁ − 1) + (s₂²/n₂)²/(n₂ − 1)). Not computable when a group
  /// has fewer than two values or both variances are 0.
  public static func welch(control: SampleSummary, treatment: SampleSummary) -> TestResult {
    guard control.count > 1, treatment.count > 1 else { return .notComputable }
    let v1 = control.variance / Double(control.count), v2 = treatment.variance / Double(treatment.count)
    guard v1 + v2 > 0 else { return .notComputable }
    let t = (treatment.mean - control.mean) / (v1 + v2).squareRoot()
    let df = (v1 + v2) * (v1 + v2) / (v1 * v1 / Double(control.count - 1) + v2 * v2 / Double(treatment.count - 1))
    return TestResult(statistic: t, degreesOfFreedom: df, pValue: 2 * GSL.value { gsl_cdf_tdist_Q(abs(t), df) })
  }

  /// The interval m ± t·s/√n for a mean at `confidence`, with n − 1 degrees
  /// of freedom, as Welch's test uses t; `nil` below two values or with a
  /// variance of 0, where a zero-width interval would claim a certainty the
  /// sample does not have.
  public static func meanInterval(_ sample: SampleSummary, confidence: Double) -> Interval? {
    guard sample.count > 1, sample.variance > 0 else { return nil }
    let t = GSL.value { gsl_cdf_tdist_Qinv((1 - confidence) / 2, Double(sample.count - 1)) }
    let half = t * (sample.variance / Double(sample.count)).squareRoot()
    return Interval(lower: sample.mean - half, upper: sample.mean + half)
  }

  /// Welch's heteroscedastic one-way ANOVA over k groups (Welch, 1951): the
  /// omnibus test for continuous metrics. The statistic is F with k − 1 and
  /// the Welch denominator degrees of freedom.
  ///
  /// Not computable with fewer than two groups of at least two values, or a
  /// group whose variance is 0.
  public static func welchANOVA(_ groups: [SampleSummary]) -> TestResult {
    let groups = groups.filter { $0.count > 1 }
    guard groups.count >= 2, groups.allSatisfy({ $0.variance > 0 }) else { return .notComputable }
    let k = Double(groups.count)
    let weights = groups.map { Double($0.count) / $0.variance }
    let totalWeight = weights.reduce(0, +)
    let grandMean = zip(weights, groups).reduce(0) { $0 + $1.0 * $1.1.mean } / totalWeight
    let between = zip(weights, groups).reduce(0) { $0 + $1.0 * ($1.1.mean - grandMean) * ($1.1.mean - grandMean) } / (k - 1)
    let lambda = zip(weights, groups).reduce(0) {
      $0 + (1 - $1.0 / totalWeight) * (1 - $1.0 / totalWeight) / Double($1.1.count - 1)
    }
    let f = between / (1 + 2 * (k - 2) * lambda / (k * k - 1))
    let df1 = k - 1, df2 = (k * k - 1) / (3 * lambda)
    return TestResult(statistic: f, degreesOfFreedom: df1, pValue: GSL.value { gsl_cdf_fdist_Q(f, df1, df2) })
  }
}
