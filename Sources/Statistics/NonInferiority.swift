import _CGSL
import Foundation

/// One-sided tests that a treatment is no worse than a control by more than
/// a relative margin δ: H₀: m₂/m₁ ≤ 1 − δ against H₁: m₂/m₁ > 1 − δ, on the
/// log of the ratio, so the margin means the same whatever the baseline.
///
/// A small p-value shows the treatment safe on the metric (a guardrail):
/// the data rule out a loss of δ or more. A large one does not show harm;
/// it only fails to show safety.
public enum NonInferiority {
  /// For rates: z = (log(p₂/p₁) − log(1 − δ)) / √((1 − p₁)/(n₁p₁) + (1 − p₂)/(n₂p₂)),
  /// p = Q(z). Not computable with an empty group or a rate of 0 (the log
  /// ratio is unbounded) or with both rates 1.
  public static func rates(
    controlSuccesses x1: Int, controlTrials n1: Int, treatmentSuccesses x2: Int, treatmentTrials n2: Int, margin: Double
  ) -> TestResult {
    guard n1 > 0, n2 > 0, x1 > 0, x2 > 0, margin > 0, margin < 1 else { return .notComputable }
    let p1 = Double(x1) / Double(n1), p2 = Double(x2) / Double(n2)
    let variance = (1 - p1) / (Double(n1) * p1) + (1 - p2) / (Double(n2) * p2)
    guard variance > 0 else { return .notComputable }
    let z = (log(p2 / p1) - log(1 - margin)) / variance.squareRoot()
    return TestResult(statistic: z, pValue: GSL.value { gsl_cdf_ugaussian_Q(z) })
  }

  /// For means: t = (log(m₂/m₁) − log(1 − δ)) / √(a₁ + a₂), aᵢ = sᵢ²/(nᵢmᵢ²),
  /// with Welch–Satterthwaite degrees of freedom on that scale, p = Q_t(t).
  /// Not computable with a group below two values, a mean not above 0, or
  /// both variances 0.
  public static func means(control: SampleSummary, treatment: SampleSummary, margin: Double) -> TestResult {
    guard control.count > 1, treatment.count > 1, control.mean > 0, treatment.mean > 0, margin > 0, margin < 1 else {
      return .notComputable
    }
    let a1 = control.variance / (Double(control.count) * control.mean * control.mean)
    let a2 = treatment.variance / (Double(treatment.count) * treatment.mean * treatment.mean)
    guard a1 + a2 > 0 else { return .notComputable }
    let degrees = (a1 + a2) * (a1 + a2) / (a1 * a1 / Double(control.count - 1) + a2 * a2 / Double(treatment.count - 1))
    let t = (log(treatment.mean / control.mean) - log(1 - margin)) / (a1 + a2).squareRoot()
    return TestResult(statistic: t, degreesOfFreedom: degrees, pValue: GSL.value { gsl_cdf_tdist_Q(t, degrees) })
  }
}
