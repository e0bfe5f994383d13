/// How a decision over several metrics and treatments shares its error
/// rates among its tests, so that the *decision* keeps them: Schultzberg,
/// Ankargren and Frånberg, "Risk-aware product decisions in A/B tests with
/// multiple metrics" (2024, arXiv 2402.11609), as spotify-confidence 4.1.0
/// allocates them (`multiple_comparison.py`, correction "spot-1").
///
/// A treatment ships when one success metric is significantly better and
/// every guardrail is significantly non-inferior. Every such test is
/// one-sided at α/(T·S), T treatments and S success metrics (Bonferroni over
/// the success tests, which alone can make a false ship of a variant that is
/// not better), so the decision ships a variant that is better on no success
/// metric with probability at most α. Its power needs every one of the G
/// guardrail tests and a success test to pass, so each is powered at
/// 1 − β/(G + 1) (β/G when there is no success metric): by the union bound the
/// decision then ships a variant with the planned effect with probability at
/// least 1 − β.
public struct RiskAwareAllocation: Hashable, Sendable {
  public let alpha: Double
  public let beta: Double
  public let successMetrics: Int
  public let guardrails: Int
  public let treatments: Int

  /// - Parameters:
  ///   - alpha: the decision's largest false-ship rate, in (0, 1).
  ///   - power: the decision's smallest chance to ship a variant with the
  ///     planned effect, 1 − β, in (0, 1).
  ///   - successMetrics, guardrails, treatments: the counts of the design;
  ///     at least one treatment and one metric of either kind.
  public init?(alpha: Double, power: Double, successMetrics: Int, guardrails: Int, treatments: Int) {
    guard alpha > 0, alpha < 1, power > 0, power < 1, successMetrics >= 0, guardrails >= 0, treatments >= 1,
      successMetrics + guardrails >= 1
    else { return nil }
    self.alpha = alpha
    self.beta = 1 - power
    self.successMetrics = successMetrics
    self.guardrails = guardrails
    self.treatments = treatments
  }

  /// The one-sided level of each success and non-inferiority test: α/(T·max(S, 1)).
  public var testAlpha: Double { alpha / Double(treatments * max(successMetrics, 1)) }

  /// The type II error each test is powered at: β/(G + 1), or β/G without success metrics.
  public var testBeta: Double { beta / Double(successMetrics == 0 ? guardrails : guardrails + 1) }

  /// The devices per group a one-sided test at `testAlpha` needs to detect a
  /// difference `difference` with power 1 − `testBeta`, groups of equal size:
  /// n = ⌈((z₁₋α + z₁₋β)/|δ|)² (σ₁² + σ₂²)⌉ (spotify-confidence's
  /// `_treatment_group_sample_size` with κ = 1). `nil` for a difference of 0
  /// or no variance.
  ///
  /// - Parameters:
  ///   - difference: the planned effect of a success metric, or a
  ///     guardrail's margin, as an absolute difference of means.
  ///   - controlVariance, treatmentVariance: the per-device variances; for a
  ///     non-inferiority test both are the baseline's (the null assumes no change).
  public func sampleSize(difference: Double, controlVariance: Double, treatmentVariance: Double) -> Int? {
    guard difference != 0, difference.isFinite, controlVariance >= 0, treatmentVariance >= 0,
      controlVariance + treatmentVariance > 0,
      let zAlpha = try? Distribution.normalQuantile(1 - testAlpha),
      let zBeta = try? Distribution.normalQuantile(1 - testBeta)
    else { return nil }
    let root = (zAlpha + zBeta) / abs(difference)
    let n = (root * root * (controlVariance + treatmentVariance)).rounded(.up)
    guard n.isFinite, n < 1e15 else { return nil }
    return Int(n)
  }

  /// The success test's sample size for a rate p₁ against p₂ = p₁ + δ: the
  /// variances p₁(1 − p₁) and p₂(1 − p₂), as spotify-confidence takes them for
  /// a binary metric's superiority test.
  public func sampleSize(baselineRate p1: Double, treatmentRate p2: Double) -> Int? {
    guard (0...1).contains(p1), (0...1).contains(p2) else { return nil }
    return sampleSize(difference: p2 - p1, controlVariance: p1 * (1 - p1), treatmentVariance: p2 * (1 - p2))
  }
}
