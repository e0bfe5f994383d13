import Foundation
import Results
import ScenarioFormat

/// How the report writes numbers: the same way everywhere, and the same bytes
/// on every machine (no locale).
public enum NumberFormat {
  /// 50,000; public for the command line's own lines (the progress bar).
  public static func count(_ value: Int) -> String {
    CountText.grouped(value)
  }

  /// 3.71%
  static func percent(_ share: Double?, decimals: Int = 2) -> String {
    guard let share, share.isFinite else { return "–" }
    return String(format: "%.\(decimals)f%%", share * 100)
  }

  /// +22.6% or −5.0%
  static func signedPercent(_ share: Double?, decimals: Int = 1) -> String {
    guard let share, share.isFinite else { return "–" }
    let text = String(format: "%.\(decimals)f%%", abs(share) * 100)
    if text == String(format: "%.\(decimals)f%%", 0.0) { return text }
    return (share < 0 ? "−" : "+") + text
  }

  /// The smallest p-value the report prints as a number: below it, the
  /// distribution functions' own rounding dominates, and 0 would claim a
  /// certainty no test gives.
  static let pValueFloor = 1e-16

  /// p-values: two significant digits, in powers of ten below 0.001
  /// (7.7×10⁻⁸: no hyphen for a table to break the number at), `< 10⁻¹⁶`
  /// below the floor.
  static func pValue(_ p: Double?) -> String {
    guard let p, p.isFinite else { return "–" }
    if p < pValueFloor { return "< 10" + superscript(-16) }
    if p < 0.001 {
      // "7.7e-08": the mantissa and exponent as printf rounds them.
      let parts = String(format: "%.1e", p).split(separator: "e")
      return "\(parts[0])×10" + superscript(Int(parts[1])!)
    }
    return String(format: "%.2g", p)
  }

  /// An exponent in superscript digits, with the superscript minus.
  private static func superscript(_ exponent: Int) -> String {
    let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
    return (exponent < 0 ? "⁻" : "") + String(abs(exponent)).map { digits[Int(String($0))!] }
  }

  /// A probability as a percentage with one decimal, never 100% or 0% from
  /// rounding alone: `> 99.99%`, `< 0.01%` at the edges.
  static func probability(_ share: Double?) -> String {
    guard let share, share.isFinite else { return "–" }
    if share > 0.9999 { return "> 99.99%" }
    if share < 0.0001 { return "< 0.01%" }
    return percent(share, decimals: share > 0.999 || share < 0.001 ? 2 : 1)
  }

  /// A number with at most four decimals and no trailing zeros: 0.05, 0.8.
  static func trim(_ value: Double) -> String {
    LineChart.trim(value, decimals: 4)
  }

  /// `trim`, but a number too small for four decimals in a power of ten
  /// (1×10⁻¹², not 0): a planned difference may be that small.
  static func trimOrPower(_ value: Double) -> String {
    guard value != 0, abs(value) < 0.0001, value.isFinite else { return trim(value) }
    let parts = String(format: "%.1e", value).split(separator: "e")
    let mantissa = parts[0].hasSuffix(".0") ? String(parts[0].dropLast(2)) : String(parts[0])
    return "\(mantissa)×10" + superscript(Int(parts[1])!)
  }

  /// A share as a percentage with no trailing zeros: 95%, 2.5%, −10%.
  static func trim(percent share: Double) -> String {
    LineChart.trim(share * 100, decimals: 2) + "%"
  }

  /// A plain number with `decimals` decimals.
  static func decimal(_ value: Double?, _ decimals: Int = 2) -> String {
    guard let value, value.isFinite else { return "–" }
    return String(format: "%.\(decimals)f", value)
  }

  /// A share of replications with its 95% interval, compactly: "12.5% (5.4–26.2)".
  static func compactShare(_ share: Share) -> String {
    percent(share.rate, decimals: 1)
      + (share.lower.map { lower in
        " (\(String(format: "%.1f", lower * 100))–\(String(format: "%.1f", (share.upper ?? lower) * 100)))"
      } ?? "")
  }
}
