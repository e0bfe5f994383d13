import Foundation
import _CGSL

/// GrowthBook's frequentist engine: a two-sided Welch t test of the lift (gbstats 0.8.0,
/// `TwoSidedTTest`), with its interval from the t distribution at the Welch–Satterthwaite degrees
/// of freedom. Defaults are gbstats': alpha 0.05, relative lifts.
public struct GrowthBookTTest: Sendable {
  public var alpha: Double
  public var difference: GrowthBookDifference

  public init(alpha: Double = 0.05, difference: GrowthBookDifference = .relative) {
    self.alpha = alpha
    self.difference = difference
  }

  public func compare(baseline: GrowthBookStatistic, variation: GrowthBookStatistic) -> GrowthBookFrequentistResult {
    let (a, b) = GrowthBookStatistic.pair(baseline, variation)
    if let refusal = Self.refusal(a, b) { return .refused(refusal) }
    let lift = GrowthBookDifferenceEstimate(a, b, difference: difference)
    let standardError = sqrt(lift.variance)
    let degrees = Self.welchDegrees(a, b)
    let statistic = lift.estimate / standardError
    let pValue = 2 * GSL.value { gsl_cdf_tdist_Q(abs(statistic), degrees) }
    let width = GSL.value { gsl_cdf_tdist_Pinv(1 - alpha / 2, degrees) } * standardError
    return GrowthBookFrequentistResult(
      expected: lift.estimate, interval: Interval(lower: lift.estimate - width, upper: lift.estimate + width), pValue: pValue,
      standardError: standardError, refusal: nil)
  }

  /// gbstats' frequentist refusals, in its order: a baseline mean of 0, then a variance of 0.
  static func refusal(_ a: GrowthBookStatistic, _ b: GrowthBookStatistic) -> GrowthBookRefusal? {
    if a.mean == 0 || a.unadjustedMean == 0 { return .baselineZero }
    if a.hasZeroVariance || b.hasZeroVariance { return .zeroVariance }
    return nil
  }

  static func welchDegrees(_ a: GrowthBookStatistic, _ b: GrowthBookStatistic) -> Double {
    let nA = Double(a.n), nB = Double(b.n)
    let shareA = a.variance / nA, shareB = b.variance / nB
    let sum = shareB + shareA
    return sum * sum
      / (b.variance * b.variance / (nB * nB * (nB - 1)) + a.variance * a.variance / (nA * nA * (nA - 1)))
  }
}
