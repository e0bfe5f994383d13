/// Numbers as a plan's descriptions write them: whole numbers without a
/// fraction (`50`, not `50.0`), others as Swift prints them; and numbers as
/// a person types them on the command line.
public enum NumberText {
  static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }

  /// The one number grammar of the options (`--guardrail`, `--engine-setting`,
  /// `--quantiles`, `--winsorize`, `--split`), as the readers of exports
  /// take amounts: an optional sign, decimal digits with an optional point
  /// and an optional exponent, and a finite value. Not the hexadecimal
  /// floats, `inf` or `nan` that `Double(_:)` also reads (`0x1p-3` is no
  /// margin a person means as 0.125).
  public static func decimal(_ text: some StringProtocol) -> Double? {
    var scalars = Substring(text).unicodeScalars[...]
    func skipSign() {
      if let first = scalars.first, first == "+" || first == "-" { scalars = scalars.dropFirst() }
    }
    func digits() -> Int {
      let count = scalars.prefix { ("0"..."9").contains($0) }.count
      scalars = scalars.dropFirst(count)
      return count
    }
    skipSign()
    var mantissa = digits()
    if scalars.first == "." {
      scalars = scalars.dropFirst()
      mantissa += digits()
    }
    guard mantissa > 0 else { return nil }
    if let first = scalars.first, first == "e" || first == "E" {
      scalars = scalars.dropFirst()
      skipSign()
      guard digits() > 0 else { return nil }
    }
    guard scalars.isEmpty, let value = Double(text), value.isFinite else { return nil }
    return value
  }
}
