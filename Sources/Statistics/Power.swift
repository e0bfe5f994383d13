/// Sample sizes and power for comparing two groups with a two-sided test at
/// level alpha, by the normal approximation.
public enum Power {
  /// The largest sample size given: beyond, no plan reaches it (a run has at
  /// most 10⁹ devices), and a tiny difference against a wide spread (1e-12,
  /// or net revenue near 0) would overflow `Int`. As `RiskAwareAllocation`'s.
  public static let largestSampleSize = 1e15

  /// The devices per group needed to detect p₂ against p₁ with `power`:
  /// n = (z₁₋α/₂ √(2p̄(1 − p̄)) + z_power √(p₁(1 − p₁) + p₂(1 − p₂)))² / (p₂ − p₁)²,
  /// p̄ = (p₁ + p₂)/2, rounded up. `nil` when p₁ = p₂, a rate is outside (0, 1)
  /// or n is beyond `largestSampleSize`.
  public static func sampleSize(baseline p1: Double, treatment p2: Double, alpha: Double, power: Double) -> Int? {
    guard p1 != p2, (0...1).contains(p1), (0...1).contains(p2), let zAlpha = try? Distribution.normalQuantile(1 - alpha / 2),
      let zPower = try? Distribution.normalQuantile(power)
    else { return nil }
    let mean = (p1 + p2) / 2
    let root = zAlpha * (2 * mean * (1 - mean)).squareRoot() + zPower * (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
    let n = root * root / ((p2 - p1) * (p2 - p1))
    guard n.isFinite, n < largestSampleSize else { return nil }
    return Int(n.rounded(.up))
  }

  /// The power to detect p₂ against p₁ with n devices per group, both tails
  /// of the two-sided test counted, so that it is α when p₂ = p₁:
  /// Φ((|p₂ − p₁|√n − z₁₋α/₂ √(2p̄(1 − p̄))) / s) + Φ((−|p₂ − p₁|√n − z₁₋α/₂ √(2p̄(1 − p̄))) / s),
  /// s = √(p₁(1 − p₁) + p₂(1 − p₂)).
  public static func achieved(baseline p1: Double, treatment p2: Double, perGroup n: Int, alpha: Double) -> Double? {
    let spread = (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
    guard n > 0, spread > 0, let zAlpha = try? Distribution.normalQuantile(1 - alpha / 2) else { return nil }
    let mean = (p1 + p2) / 2
    let shift = abs(p2 - p1) * Double(n).squareRoot(), critical = zAlpha * (2 * mean * (1 - mean)).squareRoot()
    return Distribution.normalCDF((shift - critical) / spread) + Distribution.normalCDF((-shift - critical) / spread)
  }

  /// The devices per group needed to detect a difference of means `delta`
  /// between groups of standard deviation `sd`: n = 2(z₁₋α/₂ + z_power)² sd²/delta²;
  /// `nil` beyond `largestSampleSize`.
  public static func sampleSize(difference delta: Double, standardDeviation sd: Double, alpha: Double, power: Double) -> Int? {
    guard delta != 0, sd > 0, let zAlpha = try? Distribution.normalQuantile(1 - alpha / 2),
      let zPower = try? Distribution.normalQuantile(power)
    else { return nil }
    let n = 2 * (zAlpha + zPower) * (zAlpha + zPower) * sd * sd / (delta * delta)
    guard n.isFinite, n < largestSampleSize else { return nil }
    return Int(n.rounded(.up))
  }
}

extension Power {
  /// The power to detect a difference of means `delta` between groups of `n`
  /// devices with standard deviation `sd`, both tails of the two-sided test
  /// counted: Φ(|delta|√(n/2)/sd − z₁₋α/₂) + Φ(−|delta|√(n/2)/sd − z₁₋α/₂).
  public static func achieved(difference delta: Double, standardDeviation sd: Double, perGroup n: Int, alpha: Double) -> Double? {
    guard n > 0, sd > 0, let zAlpha = try? Distribution.normalQuantile(1 - alpha / 2) else { return nil }
    let shift = abs(delta) * (Double(n) / 2).squareRoot() / sd
    return Distribution.normalCDF(shift - zAlpha) + Distribution.normalCDF(-shift - zAlpha)
  }
}
