import Foundation

/// How the report writes numbers: the same way everywhere, and the same bytes
/// on every machine (no locale).
enum NumberFormat {
  /// 50,000
  static func count(_ value: Int) -> String {
    let digits = String(abs(value))
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
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

  /// p-values: two significant digits, scientific below 0.001.
  static func pValue(_ p: Double?) -> String {
    guard let p, p.isFinite else { return "–" }
    if p == 0 { return "0" }
    if p < 0.001 { return String(format: "%.1e", p) }
    return String(format: "%.2g", p)
  }

  /// A number with at most four decimals and no trailing zeros: 0.05, 0.8.
  static func trim(_ value: Double) -> String {
    LineChart.trim(value, decimals: 4)
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
}
