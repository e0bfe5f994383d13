import Foundation

/// The mixture sequential probability ratio test (mSPRT) with a normal
/// mixture: p-values that stay valid however often the data are looked at.
///
/// At each look the estimate θ̂ of a difference, with variance s², is compared
/// with θ = 0 through the likelihood ratio of N(θ̂; θ, s²) mixed over
/// θ ~ N(0, τ²) against θ = 0:
/// Λ = √(s²/(s² + τ²)) · exp(θ̂²τ² / (2s²(s² + τ²))).
/// The always-valid p-value is the running minimum of min(1, 1/Λ) (Johari,
/// Pekelis and Walsh, "Always valid inference", 2017).
public struct SequentialTest: Hashable, Sendable {
  /// The variance τ² of the mixture over effects.
  public let mixtureVariance: Double
  /// The always-valid p-value so far.
  public private(set) var pValue: Double = 1

  public init(mixtureVariance: Double) {
    precondition(mixtureVariance > 0, "the mixture needs a positive variance")
    self.mixtureVariance = mixtureVariance
  }

  /// The likelihood ratio for one look.
  public static func likelihoodRatio(estimate: Double, variance: Double, mixtureVariance: Double) -> Double {
    let total = variance + mixtureVariance
    return (variance / total).squareRoot()
      * Foundation.exp(estimate * estimate * mixtureVariance / (2 * variance * total))
  }

  /// Takes a look; a look with no variance (no data yet) leaves the p-value as it was.
  public mutating func look(estimate: Double, variance: Double) {
    guard variance > 0, variance.isFinite, estimate.isFinite else { return }
    let ratio = Self.likelihoodRatio(estimate: estimate, variance: variance, mixtureVariance: mixtureVariance)
    pValue = min(pValue, min(1, 1 / ratio))
  }
}
