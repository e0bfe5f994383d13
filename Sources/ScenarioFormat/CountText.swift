/// A count as the bench writes it everywhere, in groups of three digits
/// (50,000) and the same bytes on every machine (no locale): in the report,
/// in a plan's expectations, in an engine's rule and on the command line.
public enum CountText {
  public static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { grouped += "," }
      grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
  }
}
