import Foundation
import _CGSL

/// A Bayesian comparison of a variation with the baseline, as GrowthBook's results page shows it.
public struct GrowthBookBayesianResult: Sendable {
  /// The posterior mean of the lift.
  public var expected: Double
  /// The central credible interval at 1 − alpha.
  public var interval: Interval
  /// P(the variation is better): the lift above 0, or below it for a metric where less is better.
  public var chanceToWin: Double
  /// The expected loss of choosing the baseline, then of choosing the variation (gbstats' `risk`).
  public var risk: (baseline: Double, variation: Double)
  /// The posterior standard deviation of the lift.
  public var standardDeviation: Double
  public var refusal: GrowthBookRefusal?

  static func refused(_ refusal: GrowthBookRefusal) -> Self {
    Self(expected: 0, interval: Interval(lower: 0, upper: 0), chanceToWin: 0.5, risk: (0, 0), standardDeviation: 0, refusal: refusal)
  }
}

/// GrowthBook's default engine: a Gaussian posterior of the lift (gbstats 0.8.0,
/// `EffectBayesianABTest`). The likelihood is the lift's normal approximation (the frequentist
/// estimate and its delta-method variance); the prior on the lift is improper (flat) by default,
/// or a proper normal one, which shrinks small samples toward its mean. From the posterior come
/// the chance to win, the credible interval and the risk, the expected loss of each choice
/// (the mean of the lift's negative part for the variation, of its positive part for the baseline).
public struct GrowthBookBayesianTest: Sendable {
  /// A normal prior on the lift, in the units of the lift it is stated for.
  public struct Prior: Sendable, Hashable {
    public var mean: Double
    public var variance: Double
    /// An improper prior is flat: the posterior is the likelihood.
    public var isProper: Bool
    /// Whether the prior is on the relative lift (gbstats' default) or the absolute difference.
    public var isRelative: Bool

    public init(mean: Double = 0, variance: Double = 1, isProper: Bool = false, isRelative: Bool = true) {
      self.mean = mean
      self.variance = variance
      self.isProper = isProper
      self.isRelative = isRelative
    }
  }

  public var alpha: Double
  public var difference: GrowthBookDifference
  /// A metric where less is better: the chance to win is of a lift below 0, and the risks swap.
  public var inverse: Bool
  public var prior: Prior

  public init(alpha: Double = 0.05, difference: GrowthBookDifference = .relative, inverse: Bool = false, prior: Prior = Prior()) {
    self.alpha = alpha
    self.difference = difference
    self.inverse = inverse
    self.prior = prior
  }

  public func compare(baseline: GrowthBookStatistic, variation: GrowthBookStatistic) -> GrowthBookBayesianResult {
    let (a, b) = GrowthBookStatistic.pair(baseline, variation)
    if difference == .relative, a.mean == 0 || a.unadjustedMean == 0 { return .refused(.baselineZero) }
    if a.n == 0 || b.n == 0 { return .refused(.noUnits) }
    if a.hasZeroVariance || b.hasZeroVariance { return .refused(.zeroVariance) }
    // A prior stated for the other kind of lift is rescaled by the baseline's mean.
    var prior = self.prior
    let scale = a.unadjustedMean
    if difference == .relative, !prior.isRelative {
      prior.mean /= abs(scale)
      prior.variance /= scale * scale
    } else if difference == .absolute, prior.isRelative {
      prior.mean *= abs(scale)
      prior.variance *= scale * scale
    }
    let data = GrowthBookDifferenceEstimate(a, b, difference: difference)
    let precision = 1 / data.variance + (prior.isProper ? 1 : 0) / prior.variance
    let mean = prior.isProper ? (data.estimate / data.variance + prior.mean / prior.variance) / precision : data.estimate
    let deviation = sqrt(1 / precision)
    // P(lift > 0) = Φ(mean / deviation).
    let aboveZero = GSL.value { gsl_cdf_ugaussian_P(mean / deviation) }
    let lower = mean + deviation * GSL.value { gsl_cdf_ugaussian_Pinv(alpha / 2) }
    let upper = mean + deviation * GSL.value { gsl_cdf_ugaussian_Pinv(1 - alpha / 2) }
    let risk = Self.risk(mean: mean, deviation: deviation)
    return GrowthBookBayesianResult(
      expected: mean, interval: Interval(lower: lower, upper: upper), chanceToWin: inverse ? 1 - aboveZero : aboveZero,
      risk: inverse ? (risk.variation, risk.baseline) : risk, standardDeviation: deviation, refusal: nil)
  }

  /// The expected loss of each choice under a normal posterior N(mean, deviation²) of the lift:
  /// choosing the baseline loses the lift where it is positive, choosing the variation loses it
  /// where it is negative (gbstats' `get_risk`). The truncated normal's means come from the
  /// inverse Mills ratio (`gsl_sf_hazard`), which stays finite far in the tails.
  static func risk(mean: Double, deviation: Double) -> (baseline: Double, variation: Double) {
    let z = mean / deviation
    let baselineBetter = GSL.value { gsl_cdf_ugaussian_P(-z) }
    // E[lift | lift ≥ 0] and E[lift | lift ≤ 0].
    let positiveMean = mean + deviation * GSL.value { gsl_sf_hazard(-z) }
    let negativeMean = mean - deviation * GSL.value { gsl_sf_hazard(z) }
    return ((1 - baselineBetter) * positiveMean, -(baselineBetter * negativeMean))
  }
}
