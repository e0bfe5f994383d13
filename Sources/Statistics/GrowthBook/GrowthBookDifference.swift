/// How a lift is measured: relative to the baseline's mean, or as a difference of means.
public enum GrowthBookDifference: String, Sendable, Hashable {
  case relative
  case absolute
}

/// The difference of two arms and its variance, as gbstats' frequentist and Bayesian tests share them
/// (`frequentist_diff`, `frequentist_variance`): a relative lift's variance by the delta method.
struct GrowthBookDifferenceEstimate {
  let estimate: Double
  let variance: Double

  init(_ a: GrowthBookStatistic, _ b: GrowthBookStatistic, difference: GrowthBookDifference) {
    switch difference {
    case .relative:
      let meanA = a.unadjustedMean, meanB = b.unadjustedMean
      estimate = (b.mean - a.mean) / meanA
      variance = b.variance / (meanA * meanA * Double(b.n))
        + a.variance * (meanB * meanB) / (meanA * meanA * meanA * meanA * Double(a.n))
    case .absolute:
      estimate = b.mean - a.mean
      variance = b.variance / Double(b.n) + a.variance / Double(a.n)
    }
  }
}
