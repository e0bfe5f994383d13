import _CGSL

/// Tests on conversion counts: successes out of trials per group.
public enum ProportionTests {
  /// The two-proportion z-test of treatment against control, with the pooled
  /// standard error; two-sided.
  ///
  /// z = (p₂ − p₁) / √(p̄(1 − p̄)(1/n₁ + 1/n₂)), p̄ = (x₁ + x₂)/(n₁ + n₂).
  /// Not computable when a group is empty or p̄ is 0 or 1 (no variation).
  public static func twoProportionZ(
    controlSuccesses: Int, controlTrials: Int, treatmentSuccesses: Int, treatmentTrials: Int
  ) -> TestResult {
    guard controlTrials > 0, treatmentTrials > 0 else { return .notComputable }
    let n1 = Double(controlTrials), n2 = Double(treatmentTrials)
    let pooled = Double(controlSuccesses + treatmentSuccesses) / (n1 + n2)
    let standardError = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
    guard standardError > 0 else { return .notComputable }
    let z = (Double(treatmentSuccesses) / n2 - Double(controlSuccesses) / n1) / standardError
    return TestResult(statistic: z, pValue: 2 * Distribution.normalSurvival(abs(z)))
  }

  /// Pearson's chi-square test of independence on a k × 2 table of successes
  /// and failures per group, without continuity correction; df = k − 1.
  ///
  /// Not computable with fewer than two non-empty groups, or when every trial
  /// succeeded or every trial failed (an expected count of 0).
  public static func chiSquareIndependence(successes: [Int], trials: [Int]) -> TestResult {
    precondition(successes.count == trials.count, "one success count per group")
    let groups = zip(successes, trials).filter { $0.1 > 0 }
    guard groups.count >= 2 else { return .notComputable }
    let total = Double(groups.reduce(0) { $0 + $1.1 })
    let totalSuccesses = Double(groups.reduce(0) { $0 + $1.0 })
    let totalFailures = total - totalSuccesses
    guard totalSuccesses > 0, totalFailures > 0 else { return .notComputable }
    var statistic = 0.0
    for (success, trial) in groups {
      let n = Double(trial)
      let expectedSuccesses = n * totalSuccesses / total, expectedFailures = n * totalFailures / total
      let failures = n - Double(success)
      statistic += (Double(success) - expectedSuccesses) * (Double(success) - expectedSuccesses) / expectedSuccesses
      statistic += (failures - expectedFailures) * (failures - expectedFailures) / expectedFailures
    }
    let df = Double(groups.count - 1)
    return TestResult(statistic: statistic, degreesOfFreedom: df, pValue: GSL.value { gsl_cdf_chisq_Q(statistic, df) })
  }

  /// Fisher's exact test on the 2 × 2 table [[a, b], [c, d]] (rows: control,
  /// treatment; columns: successes, failures); two-sided: the probability,
  /// under the hypergeometric law of the table's margins, of every table no
  /// more likely than the observed one (with a relative tolerance of 1e-7, as
  /// in R and scipy). The statistic is the sample odds ratio ad/bc, `nil` when
  /// bc is 0.
  ///
  /// Its cost grows with the smallest margin: use it for small counts.
  public static func fisherExact(a: Int, b: Int, c: Int, d: Int) -> TestResult {
    precondition(a >= 0 && b >= 0 && c >= 0 && d >= 0, "counts are not negative")
    let oddsRatio = b * c == 0 ? nil : Double(a) * Double(d) / (Double(b) * Double(c))
    // a follows the hypergeometric law: a + b draws from a + c successes and b + d failures.
    let successes = UInt32(a + c), failures = UInt32(b + d), draws = UInt32(a + b)
    let lowest = Int(draws) > Int(failures) ? Int(draws) - Int(failures) : 0
    let highest = min(Int(draws), Int(successes))
    func probability(_ k: Int) -> Double {
      GSL.value { gsl_ran_hypergeometric_pdf(UInt32(k), successes, failures, draws) }
    }
    let observed = probability(a)
    let threshold = observed * (1 + 1e-7)
    var pValue = 0.0
    for k in lowest...highest {
      let p = probability(k)
      if p <= threshold { pValue += p }
    }
    return TestResult(statistic: oddsRatio, pValue: min(pValue, 1))
  }

  /// The Wilson score interval for a proportion at `confidence`; `nil` with no trials.
  public static func wilsonInterval(successes: Int, trials: Int, confidence: Double) -> Interval? {
    guard trials > 0 else { return nil }
    let z = twoSidedCriticalValue(confidence), n = Double(trials), p = Double(successes) / n
    let denominator = 1 + z * z / n
    let center = (p + z * z / (2 * n)) / denominator
    let half = z / denominator * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
    // At 0 or n successes the bound is exactly 0 or 1; the formula would leave a rounding error.
    return Interval(
      lower: successes == 0 ? 0 : max(0, center - half), upper: successes == trials ? 1 : min(1, center + half))
  }

  /// Newcombe's hybrid score interval for the difference of proportions
  /// p₂ − p₁ at `confidence` (Newcombe, 1998, method 10), from each rate's
  /// Wilson interval (lᵢ, uᵢ): p₂ − p₁ − √((p₂ − l₂)² + (u₁ − p₁)²) to
  /// p₂ − p₁ + √((u₂ − p₂)² + (p₁ − l₁)²). Unlike the Wald interval it keeps a
  /// width when every device converts or none does, and stays within [−1, 1].
  /// `nil` when a group is empty.
  public static func differenceInterval(
    controlSuccesses: Int, controlTrials: Int, treatmentSuccesses: Int, treatmentTrials: Int, confidence: Double
  ) -> Interval? {
    guard let control = wilsonInterval(successes: controlSuccesses, trials: controlTrials, confidence: confidence),
      let treatment = wilsonInterval(successes: treatmentSuccesses, trials: treatmentTrials, confidence: confidence)
    else { return nil }
    let p1 = Double(controlSuccesses) / Double(controlTrials), p2 = Double(treatmentSuccesses) / Double(treatmentTrials)
    let below = ((p2 - treatment.lower) * (p2 - treatment.lower) + (control.upper - p1) * (control.upper - p1)).squareRoot()
    let above = ((treatment.upper - p2) * (treatment.upper - p2) + (p1 - control.lower) * (p1 - control.lower)).squareRoot()
    return Interval(lower: p2 - p1 - below, upper: p2 - p1 + above)
  }
}
