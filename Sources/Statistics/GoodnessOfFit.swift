import _CGSL

/// Pearson's chi-square goodness-of-fit test of observed counts against
/// expected shares: the sample ratio mismatch check.
public enum GoodnessOfFit {
  /// - Parameters:
  ///   - observed: counts per category.
  ///   - expectedShares: any non-negative weights per category; they are normalised.
  /// - Returns: χ² = Σ (O − E)²/E over categories with E > 0, df = their
  ///   number − 1. A count in a category whose expected share is 0 makes the
  ///   observation impossible: p = 0 and no statistic. Not computable with no
  ///   observations or fewer than two possible categories.
  public static func pearson(observed: [Int], expectedShares: [Double]) -> TestResult {
    precondition(observed.count == expectedShares.count, "one expected share per category")
    let total = Double(observed.reduce(0, +)), shareTotal = expectedShares.reduce(0, +)
    let possible = expectedShares.filter { $0 > 0 }.count
    guard total > 0, shareTotal > 0, possible >= 2 else { return .notComputable }
    var statistic = 0.0
    for (count, share) in zip(observed, expectedShares) {
      guard share > 0 else {
        if count > 0 { return TestResult(statistic: nil, degreesOfFreedom: Double(possible - 1), pValue: 0) }
        continue
      }
      let expected = total * share / shareTotal
      statistic += (Double(count) - expected) * (Double(count) - expected) / expected
    }
    let df = Double(possible - 1)
    return TestResult(statistic: statistic, degreesOfFreedom: df, pValue: GSL.value { gsl_cdf_chisq_Q(statistic, df) })
  }
}
