import _CGSL
import Foundation

/// Bayesian summaries of two conversion rates with Beta-Binomial posteriors.
///
/// With a Beta(α₀, β₀) prior, x successes in n trials give the posterior
/// Beta(α₀ + x, β₀ + n − x). The summaries are integrals over the posteriors,
/// computed deterministically by GSL's adaptive quadrature on the posterior's
/// mean ± 50 standard deviations (within [0, 1]), outside which its mass is
/// negligible, so that the quadrature sees the peak however narrow it is.
/// Past a million pseudo-observations in a posterior the Beta is normal to
/// within its skewness, about 1e-3, and GSL's quadrature loses precision on
/// the needle; there the summaries use the normal approximation, whose
/// formulas are given on each method.
public struct BetaBinomial: Hashable, Sendable {
  /// The prior's parameters; Beta(1, 1), uniform, by default.
  public var priorAlpha: Double
  public var priorBeta: Double

  public init(priorAlpha: Double = 1, priorBeta: Double = 1) {
    precondition(priorAlpha > 0 && priorBeta > 0, "a Beta prior has positive parameters")
    self.priorAlpha = priorAlpha
    self.priorBeta = priorBeta
  }

  /// A posterior: Beta(alpha, beta).
  public struct Posterior: Hashable, Sendable {
    public let alpha: Double
    public let beta: Double

    public var mean: Double { alpha / (alpha + beta) }

    public var variance: Double {
      alpha * beta / ((alpha + beta) * (alpha + beta) * (alpha + beta + 1))
    }

    /// Whether the posterior is past the size where the normal approximation takes over.
    var isLarge: Bool { alpha + beta > 1e6 }

    func density(_ x: Double) -> Double { gsl_ran_beta_pdf(x, alpha, beta) }
    func cdf(_ x: Double) -> Double { gsl_cdf_beta_P(x, alpha, beta) }

    /// The interval that holds all but a negligible part of the mass.
    var support: (lower: Double, upper: Double) {
      let deviation = variance.squareRoot()
      return (max(0, mean - 50 * deviation), min(1, mean + 50 * deviation))
    }
  }

  public func posterior(successes: Int, trials: Int) -> Posterior {
    Posterior(alpha: priorAlpha + Double(successes), beta: priorBeta + Double(trials - successes))
  }

  /// P(p_treatment > p_control) = ∫ f_T(x) F_C(x) dx, or Φ((μ_T − μ_C)/√(σ_T² + σ_C²))
  /// for large posteriors; `nil` when GSL's quadrature fails.
  public func probabilityToBeat(control: Posterior, treatment: Posterior) -> Double? {
    if control.isLarge || treatment.isLarge {
      let spread = (control.variance + treatment.variance).squareRoot()
      return Distribution.normalCDF((treatment.mean - control.mean) / spread)
    }
    let (lower, upper) = treatment.support
    guard let value = try? Integration.integrate(lower, upper, { x in treatment.density(x) * control.cdf(x) }) else {
      return nil
    }
    return min(max(value, 0), 1)
  }

  /// The expected loss of choosing the treatment: E[max(p_control − p_treatment, 0)]
  /// = ∫ f_C(a) (a F_T(a) − μ_T F_T⁺(a)) da, with F_T⁺ the CDF of
  /// Beta(α_T + 1, β_T) and μ_T the treatment's posterior mean; for large
  /// posteriors, with D = p_C − p_T ~ N(m, s²), E[max(D, 0)] = m Φ(m/s) + s φ(m/s).
  public func expectedLoss(control: Posterior, treatment: Posterior) -> Double? {
    if control.isLarge || treatment.isLarge {
      let m = control.mean - treatment.mean, s = (control.variance + treatment.variance).squareRoot()
      let density = Foundation.exp(-m * m / (2 * s * s)) / (2 * Double.pi).squareRoot()
      return max(0, m * Distribution.normalCDF(m / s) + s * density)
    }
    let (lower, upper) = control.support
    let shifted = Posterior(alpha: treatment.alpha + 1, beta: treatment.beta)
    let loss = try? Integration.integrate(lower, upper) { a in
      control.density(a) * (a * treatment.cdf(a) - treatment.mean * shifted.cdf(a))
    }
    return loss.map { max($0, 0) }
  }
}
