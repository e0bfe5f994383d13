import Foundation

/// How many decimals an amount gets: three significant digits at its
/// metric's scale, so that a revenue of 12.34 and an amount of 10⁻⁷ per
/// device both read sensibly, and the report and `bench inspect` agree.
public enum AmountPrecision {
  /// The decimals for amounts whose magnitude is about `scale`.
  public static func decimals(forScale scale: Double) -> Int {
    guard scale.isFinite, scale > 0 else { return 2 }
    let integerDigits = Int(log10(scale).rounded(.down)) + 1
    return min(max(3 - integerDigits, 0), 15)
  }

  /// `value` with the decimals of `scale`.
  public static func text(_ value: Double, scale: Double) -> String {
    guard value.isFinite else { return "–" }
    return String(format: "%.\(decimals(forScale: scale))f", value)
  }
}
