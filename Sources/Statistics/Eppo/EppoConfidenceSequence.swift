import Foundation

/// Eppo's sequential confidence interval of a lift, its default analysis
/// method (Eppo's documentation, "Statistical nitty-gritty", "Confidence
/// intervals", "Sequential"): a confidence sequence after Howard, Ramdas,
/// McAuliffe and Sekhon ("Time-uniform, nonparametric, nonasymptotic
/// confidence sequences", Annals of Statistics, 2021, equation 14), scaled by
/// the lift's standard error, so that the interval covers the lift at every
/// sample size at once with probability at least the confidence level: the
/// page may be read any number of times.
///
/// After t subjects (both arms together) the interval is the estimate ± σ̂ B,
/// B = √((t + ρ) log((t + ρ) / (ρ (1 − c)²)) / t), where
/// ρ = N_tune / (log(log(e / (1 − c)²)) − 2 log(1 − c)) makes the interval
/// narrowest, relative to a fixed-sample one, near N_tune subjects
/// (Eppo's 10,000).
public struct EppoConfidenceSequence: Hashable, Sendable {
  /// The confidence level c, Eppo's 95% unless a team changed it.
  public var confidence: Double
  /// N_tune: the sample size near which the interval is tightest.
  public var tuningSample: Double

  public init(confidence: Double = 0.95, tuningSample: Double = 10_000) {
    precondition(confidence > 0 && confidence < 1 && tuningSample > 0, "a confidence in (0, 1) and a positive tuning sample")
    self.confidence = confidence
    self.tuningSample = tuningSample
  }

  /// ρ, the mixture's scale in subjects.
  public var rho: Double {
    let alpha = 1 - confidence
    return tuningSample / (log(log(M_E / (alpha * alpha))) - 2 * log(alpha))
  }

  /// B, the multiple of the standard error the interval spans on each side after `sampleSize` subjects
  /// (at least 1).
  public func boundary(sampleSize: Int) -> Double {
    let t = Double(max(sampleSize, 1)), rho = self.rho, alpha = 1 - confidence
    return ((t + rho) * log((t + rho) / (rho * alpha * alpha)) / t).squareRoot()
  }

  /// The lift's interval after `sampleSize` subjects.
  public func interval(_ lift: EppoLift, sampleSize: Int) -> (lower: Double, upper: Double) {
    let halfWidth = lift.standardError * boundary(sampleSize: sampleSize)
    return (lift.estimate - halfWidth, lift.estimate + halfWidth)
  }
}
