import Foundation

/// GrowthBook's sequential engine: an always-valid two-sided test of the lift by a normal
/// mixture (gbstats 0.8.0, `SequentialTwoSidedTTest`; Waudby-Smith et al., "Time-uniform central
/// limit theory and asymptotic confidence sequences", arXiv:2103.06476v7, equations 9, 155 and
/// 161), so that its p-value and interval may be read at every look. The tuning parameter is the
/// total sample size at which the confidence sequence is tightest (gbstats' default 5,000).
public struct GrowthBookSequentialTest: Sendable {
  public var alpha: Double
  public var difference: GrowthBookDifference
  public var tuningParameter: Double

  public init(alpha: Double = 0.05, difference: GrowthBookDifference = .relative, tuningParameter: Double = 5000) {
    self.alpha = alpha
    self.difference = difference
    self.tuningParameter = tuningParameter
  }

  public func compare(baseline: GrowthBookStatistic, variation: GrowthBookStatistic) -> GrowthBookFrequentistResult {
    let (a, b) = GrowthBookStatistic.pair(baseline, variation)
    if let refusal = GrowthBookTTest.refusal(a, b) { return .refused(refusal) }
    let lift = GrowthBookDifferenceEstimate(a, b, difference: difference)
    let total = Double(a.n + b.n)
    // Equation 161: the mixture's spread for the tuning parameter.
    let rho = sqrt((-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuningParameter)
    let rhoSquared = rho * rho
    // Equation 9: the confidence sequence's half-width.
    let s2 = lift.variance * total
    let width = sqrt(s2) * sqrt(2 * (total * rhoSquared + 1) * log(sqrt(total * rhoSquared + 1) / alpha) / pow(total * rho, 2))
    // Equation 155: the mixture's e-value, and its reciprocal as an always-valid p-value.
    let st2 = lift.estimate * lift.estimate * total / lift.variance
    let tr2p1 = total * rhoSquared + 1
    let evalue = exp(rhoSquared * st2 / (2 * tr2p1)) / sqrt(tr2p1)
    return GrowthBookFrequentistResult(
      expected: lift.estimate, interval: Interval(lower: lift.estimate - width, upper: lift.estimate + width), pValue: min(1 / evalue, 1),
      standardError: sqrt(lift.variance), refusal: nil)
  }
}
