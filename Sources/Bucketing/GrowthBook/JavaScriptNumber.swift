// SPDX-License-Identifier: Apache-2.0

/// Numbers as JavaScript writes and reads them: `String(number)`, which is
/// how GrowthBook turns a numeric id or version into text, and `Number(text)`,
/// which its comparisons apply to a string compared with a number.
enum JavaScriptNumber {
  static func string(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value == 0 { return "0" }
    if value < 0 { return "-" + string(-value) }
    if value.isInfinite { return "Infinity" }
    // Shortest round-trip digits and exponent: value = 0.d₁…d_k × 10ⁿ.
    let text = "\(value)"
    let parts = text.split(separator: "e")
    let mantissa = parts[0], exponent = parts.count > 1 ? Int(parts[1])! : 0
    let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let whole = String(pieces[0]), fraction = pieces.count > 1 ? String(pieces[1]) : ""
    let padded = String((whole + fraction).drop { $0 == "0" })
    var digits = padded
    while digits.hasSuffix("0") { digits.removeLast() }
    let k = digits.count, n = exponent - fraction.count + padded.count
    if k <= n && n <= 21 { return digits + String(repeating: "0", count: n - k) }
    if 0 < n && n <= 21 { return String(digits.prefix(n)) + "." + String(digits.dropFirst(n)) }
    if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + digits }
    let lead = String(digits.prefix(1)) + (k > 1 ? "." + String(digits.dropFirst()) : "")
    return lead + "e" + (n > 0 ? "+" : "-") + String(abs(n - 1))
  }

  /// `Number(text)`: blanks around the text are ignored, an empty text is
  /// 0, a decimal literal (with a sign, a fraction, an exponent) or
  /// `Infinity` is its value, `0x`, `0o` and `0b` integers are read in
  /// their base; anything else is NaN.
  static func parse(_ text: String) -> Double {
    let trimmed = text.unicodeScalars.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
    let scalars = Array(trimmed)
    if scalars.isEmpty { return 0 }
    if scalars.count > 2, scalars[0] == "0", let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][scalars[1]] {
      var value = 0.0
      for scalar in scalars.dropFirst(2) {
        guard let digit = Int(String(scalar), radix: radix) else { return .nan }
        value = value * Double(radix) + Double(digit)
      }
      return value
    }
    var body = scalars[...]
    var sign = 1.0
    if let first = body.first, first == "+" || first == "-" {
      sign = first == "-" ? -1 : 1
      body = body.dropFirst()
    }
    let literal = String(String.UnicodeScalarView(body))
    if literal == "Infinity" { return sign * .infinity }
    // Digits with at most one point (not alone), then an optional exponent with digits.
    var index = body.startIndex, digits = 0, points = 0
    while index < body.endIndex, body[index] == "." || ("0"..."9").contains(body[index]) {
      if body[index] == "." { points += 1 } else { digits += 1 }
      index = body.index(after: index)
    }
    guard digits > 0, points <= 1 else { return .nan }
    if index < body.endIndex {
      guard body[index] == "e" || body[index] == "E" else { return .nan }
      var exponent = body.index(after: index)
      if exponent < body.endIndex, body[exponent] == "+" || body[exponent] == "-" { exponent = body.index(after: exponent) }
      guard exponent < body.endIndex, body[exponent...].allSatisfy({ ("0"..."9").contains($0) }) else { return .nan }
    }
    return Double(literal).map { sign * $0 } ?? .nan
  }

  /// JavaScript's white space and line terminators, which `Number()` trims.
  private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
      return true
    default:
      return false
    }
  }
}
