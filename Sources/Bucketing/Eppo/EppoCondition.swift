// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// A condition of an allocation's rule, as Eppo's core evaluates it: an
/// operator that cannot apply (a regular expression on a number, a
/// comparison with a value that is neither a version nor a number, a
/// missing attribute) is false, for NOT_ONE_OF and NOT_MATCHES too.
public struct EppoCondition: Sendable {
  public let attribute: String
  public let op: String
  public let value: JSONValue
  /// A MATCHES or NOT_MATCHES pattern compiled once, when the configuration is read; `nil` for a value
  /// that is not a string or not a pattern (the condition is then false).
  private let pattern: RegularExpressionSearch?
  /// A ONE_OF or NOT_ONE_OF list's strings as a set, read once: the core
  /// looks a value up in the list, and a list of 20,000 values compared one
  /// by one at every assignment made 2 replications of 300 devices take 4 s.
  /// Non-string items match nothing, as in the list. `nil` for another operator.
  private let listed: Set<ExactText>?

  static let operators: Set<String> = ["MATCHES", "NOT_MATCHES", "ONE_OF", "NOT_ONE_OF", "IS_NULL", "GTE", "GT", "LTE", "LT"]

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    attribute = try reader.required(members, "attribute", path, reader.string)
    op = try reader.required(members, "operator", path, reader.string)
    guard Self.operators.contains(op) else {
      throw reader.error("\(path).operator", "is \"\(op)\": one of \(Self.operators.sorted().joined(separator: ", ")) was expected")
    }
    self.value = members["value"] ?? .null
    pattern = op.hasSuffix("MATCHES") ? self.value.string.flatMap { RegularExpressionSearch($0) } : nil
    if op.hasSuffix("ONE_OF"), case .array(let values) = self.value {
      listed = Set(values.compactMap { $0.string.map(ExactText.init) })
    } else {
      listed = nil
    }
  }

  /// Whether the subject's attribute (nil when absent) satisfies the condition.
  func holds(_ attribute: JSONValue?) -> Bool {
    switch op {
    case "MATCHES", "NOT_MATCHES":
      guard let text = Self.text(attribute), let pattern else { return false }
      let matches = pattern.found(in: text)
      return matches == (op == "MATCHES")
    case "ONE_OF", "NOT_ONE_OF":
      guard let text = Self.text(attribute), let listed else { return false }
      return listed.contains(ExactText(text)) == (op == "ONE_OF")
    case "IS_NULL":
      guard case .bool(let expected) = value else { return false }
      return (attribute == nil || attribute == .null) == expected
    default:
      if case .string(let text) = value, let bound = SemanticVersion(strict: text) {
        guard case .string(let given)? = attribute, let version = SemanticVersion(strict: given) else { return false }
        return order(version.compare(bound, includingBuild: true), 0)
      }
      let bound: Double
      switch value {
      case .string(let text): guard let number = UnleashRule.rustDouble(text) else { return false }; bound = number
      default: guard let number = value.double else { return false }; bound = number
      }
      let given: Double
      switch attribute {
      case .string(let text)?: guard let number = UnleashRule.rustDouble(text) else { return false }; given = number
      case let number?: guard let double = number.double else { return false }; given = double
      case nil: return false
      }
      return order(given, bound)
    }
  }

  /// An attribute as the core matches it against text: a string as it is, a
  /// boolean as "true" or "false", a number as Rust writes it; nil otherwise.
  static func text(_ attribute: JSONValue?) -> String? {
    switch attribute {
    case .string(let string)?: string
    case .bool(let flag)?: flag ? "true" : "false"
    case let number? where number.double != nil: rustDisplay(number.double!)
    default: nil
    }
  }

  private func order<T: Comparable>(_ a: T, _ b: T) -> Bool {
    switch op {
    case "GTE": a >= b
    case "GT": a > b
    case "LTE": a <= b
    default: a < b
    }
  }

  /// A double as Rust's `Display` writes it: the shortest digits that read
  /// back, never in exponent form (42.0 is "42", 1e21 is "1000000000000000000000").
  public static func rustDisplay(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-inf" : "inf") }
    if value == 0 { return value.sign == .minus ? "-0" : "0" }
    let shortest = "\(abs(value))"
    var mantissa = shortest, exponent = 0
    if let e = shortest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = String(shortest[..<e])
      exponent = Int(shortest[shortest.index(after: e)...])!
    }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    var digits = String(parts[0]) + (parts.count > 1 ? String(parts[1]) : "")
    var point = parts[0].count + exponent
    while digits.count > 1, digits.first == "0" {
      digits.removeFirst()
      point -= 1
    }
    while digits.hasSuffix("0"), digits.count > max(point, 1) { digits.removeLast() }
    let text: String
    if point <= 0 {
      text = "0." + String(repeating: "0", count: -point) + digits
    } else if point >= digits.count {
      text = digits + String(repeating: "0", count: point - digits.count)
    } else {
      text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    }
    return (value < 0 ? "-" : "") + text
  }
}
