// SPDX-License-Identifier: Apache-2.0

/// The value of an assignment.
///
/// Lab restricts values to strings and numbers so that every source can carry
/// them and analysts can read them from a single analytics table.
public enum AssignmentValue: Hashable, Sendable, Codable {
  case string(String)
  case number(Double)

  /// The value as an analytics table shows it: strings as they are, numbers in
  /// Swift's shortest round-tripping form (`12` rather than `12.0`).
  public var text: String {
    switch self {
    case .string(let string):
      return string
    case .number(let number):
      if number.rounded() == number, abs(number) < 1e15 {
        return String(Int64(number))
      }
      return "\(number)"
    }
  }
}

extension AssignmentValue: CustomStringConvertible {
  public var description: String {
    switch self {
    case .string(let string): return "\"\(string)\""
    case .number: return text
    }
  }
}
