import Foundation

/// What a significant result is worth when the test had little power: the
/// design analysis of Gelman and Carlin (2014, "Beyond power calculations:
/// assessing type S (sign) and type M (magnitude) errors").
///
/// Given a plausible true difference `D` and the standard error `s` of its
/// estimate, the estimate is taken as normal, X ~ N(D, s²), and a two-sided
/// test at level alpha calls it significant when |X| > z·s with z = z₁₋α/₂.
/// With λ = D/s:
/// - power = Φ(λ − z) + Φ(−λ − z);
/// - type S error, the chance that a significant estimate has the wrong
///   sign: Φ(−λ − z)/power for D > 0;
/// - exaggeration ratio (type M), E(|X| given significance)/D:
///   (λ(1 − Φ(z − λ) − Φ(−z − λ)) + φ(z − λ) + φ(z + λ)) / (λ · power),
///   the closed form of the expectation Gelman and Carlin simulate.
///
/// Low power does not make a significant result wrong; it makes it likely
/// to overstate the effect and, at very low power, to have the wrong sign.
/// These figures say how much.
public struct Retrodesign: Hashable, Sendable {
  /// The chance that the test is significant when the true difference is `D`.
  public var power: Double
  /// The chance that a significant estimate has the opposite sign to `D`.
  public var typeS: Double
  /// The expected |estimate| of a significant result over |D|: how many times
  /// too large a significant estimate is on average.
  public var exaggeration: Double

  /// The design analysis of a true difference `difference` (either sign,
  /// not 0) estimated with `standardError` (positive) by a two-sided test at
  /// `alpha`; `nil` outside that domain.
  public init?(difference: Double, standardError: Double, alpha: Double) {
    guard difference != 0, difference.isFinite, standardError > 0, standardError.isFinite, alpha > 0, alpha < 1,
      let z = try? Distribution.normalQuantile(1 - alpha / 2)
    else { return nil }
    let lambda = abs(difference) / standardError
    let right = Distribution.normalSurvival(z - lambda)
    let wrong = Distribution.normalCDF(-z - lambda)
    let power = right + wrong
    guard power > 0 else { return nil }
    let density = { (x: Double) in exp(-x * x / 2) / (2 * Double.pi).squareRoot() }
    let expected = lambda * (right - wrong) + density(z - lambda) + density(z + lambda)
    self.power = power
    typeS = wrong / power
    exaggeration = expected / (lambda * power)
  }
}
