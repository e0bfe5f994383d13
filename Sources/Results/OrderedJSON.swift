/// A JSON value whose object keys keep the order they were given in, written
/// in one fixed format: two-space indentation, arrays of numbers on one line,
/// integers as integers, other numbers in Swift's shortest round-tripping form,
/// and `null` for numbers that are not finite.
public indirect enum OrderedJSON: Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  /// A whole number beyond `Int`'s range, such as a seed of 2⁶³ or more.
  case unsignedInteger(UInt64)
  case number(Double)
  case string(String)
  case array([OrderedJSON])
  case object([(String, OrderedJSON)])

  public static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
    lhs.rendered() == rhs.rendered()
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(rendered())
  }

  /// A number, or `null` when there is none or it is not finite.
  public static func number(_ value: Double?) -> OrderedJSON {
    guard let value, value.isFinite else { return .null }
    return .number(value)
  }

  /// The document as text, ending with a newline.
  public func rendered() -> String {
    var output = ""
    write(to: &output, indent: 0)
    output += "\n"
    return output
  }

  /// The document on one line, without its newline: for JSON Lines output.
  public func renderedOnOneLine() -> String {
    var output = ""
    write(to: &output, indent: nil)
    return output
  }

  /// Writes the value; `indent` nil writes everything on one line.
  private func write(to output: inout String, indent: Int?) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .integer(let value): output += String(value)
    case .unsignedInteger(let value): output += String(value)
    case .number(let value): output += value.isFinite ? Self.format(value) : "null"
    case .string(let value): Self.quote(value, into: &output)
    case .array(let elements):
      if elements.isEmpty {
        output += "[]"
      } else if let indent, !elements.allSatisfy(\.isScalar) {
        output += "[\n"
        for (index, element) in elements.enumerated() {
          output += String(repeating: " ", count: indent + 2)
          element.write(to: &output, indent: indent + 2)
          output += index == elements.count - 1 ? "\n" : ",\n"
        }
        output += String(repeating: " ", count: indent) + "]"
      } else {
        output += "["
        for (index, element) in elements.enumerated() {
          if index > 0 { output += ", " }
          element.write(to: &output, indent: indent)
        }
        output += "]"
      }
    case .object(let members):
      if members.isEmpty {
        output += "{}"
        return
      }
      guard let indent else {
        output += "{"
        for (index, (key, value)) in members.enumerated() {
          if index > 0 { output += ", " }
          Self.quote(key, into: &output)
          output += ": "
          value.write(to: &output, indent: nil)
        }
        output += "}"
        return
      }
      output += "{\n"
      for (index, (key, value)) in members.enumerated() {
        output += String(repeating: " ", count: indent + 2)
        Self.quote(key, into: &output)
        output += ": "
        value.write(to: &output, indent: indent + 2)
        output += index == members.count - 1 ? "\n" : ",\n"
      }
      output += String(repeating: " ", count: indent) + "}"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: return false
    default: return true
    }
  }

  /// Whole numbers of moderate size without a fraction, others as Swift prints them.
  private static func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 {
      return String(Int64(value))
    }
    return "\(value)"
  }

  private static func quote(_ string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
