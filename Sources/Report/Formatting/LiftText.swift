import Results

/// A comparison's lift with its interval, as every section of the report writes it.
enum LiftText {
  /// A lift with its interval, marked † when the interval and the test
  /// disagree and ‡ when an arm is too small for the amount's skewness.
  static func cell(_ comparison: Comparison, alpha: Double) -> String {
    if comparison.liftIsUnbounded { return "unbounded (baseline 0)" }
    if comparison.tooFewDevices { return "\(NumberFormat.signedPercent(comparison.lift)) (too few devices)" }
    guard let interval = comparison.liftInterval else { return NumberFormat.signedPercent(comparison.lift) }
    return "\(NumberFormat.signedPercent(comparison.lift)) "
      + "(\(NumberFormat.signedPercent(interval.lower)) to \(NumberFormat.signedPercent(interval.upper)))"
      + (disagrees(comparison, alpha: alpha) ? " †" : "") + (comparison.skewWarning != nil ? " ‡" : "")
  }

  /// A lift with its interval in as few characters as a table cell allows:
  /// "+22.6% (+6.2 to +41.4)".
  static func short(_ comparison: Comparison) -> String {
    if comparison.liftIsUnbounded { return "unbounded" }
    let lift = NumberFormat.signedPercent(comparison.lift)
    guard let interval = comparison.liftInterval, !comparison.tooFewDevices else { return lift }
    func bound(_ value: Double) -> String {
      let text = NumberFormat.signedPercent(value)
      return text.hasSuffix("%") ? String(text.dropLast()) : text
    }
    return "\(lift) (\(bound(interval.lower)) to \(bound(interval.upper)))" + (comparison.skewWarning != nil ? " ‡" : "")
  }

  /// Whether the lift interval and the test disagree: the interval excludes
  /// no lift while the test's p-value is at or above alpha, or the reverse.
  /// They are computed by different methods (a ratio interval, a z or t test
  /// of the difference) and can part at the margin; the test decides.
  static func disagrees(_ comparison: Comparison, alpha: Double) -> Bool {
    guard let interval = comparison.liftInterval, let p = comparison.test.pValue else { return false }
    return (interval.lower > 0 || interval.upper < 0) != (p < alpha)
  }
}
