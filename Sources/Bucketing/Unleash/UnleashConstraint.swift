// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// A constraint on a context field. The engine writes each one into the text
/// of a rule and compiles it, and that step decides more than the operator
/// does: an ordered comparison's value is read as a date, else a semantic
/// version, else a number, whatever the operator's name says (so `NUM_GT`
/// with "1.2.3" compares versions), and a value that is none of them, a
/// semantic version starting with "v" or an empty string list for a string
/// operator breaks the rule: the engine then serves the whole feature off.
public struct UnleashConstraint: Sendable {
  public let contextName: String
  public let op: String
  public let values: [String]?
  public let value: String?
  public let inverted: Bool
  public let caseInsensitive: Bool

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    contextName = try reader.required(members, "contextName", path, reader.string)
    op = try reader.required(members, "operator", path, reader.string)
    values = try reader.optional(members, "values", path) { value, path throws(BucketingError) in try reader.list(value, path, reader.string) }
    self.value = try reader.optional(members, "value", path, reader.string)
    inverted = try reader.optional(members, "inverted", path, reader.bool) ?? false
    caseInsensitive = try reader.optional(members, "caseInsensitive", path, reader.bool) ?? false
  }

  /// Why a rule does not compile; the engine then serves the feature off.
  struct Broken: Error {
    let reason: String
  }

  /// The compiled check, or why the rule breaks.
  func compiled() throws(Broken) -> UnleashRule {
    let field = UnleashRule.Field(contextName)
    let check: UnleashRule
    switch op {
    case "IN", "NOT_IN":
      let list = values ?? []
      check = .list(field, Set(list.map(ExactText.init)), isIn: op == "IN", empty: list.isEmpty)
    case "STR_STARTS_WITH", "STR_ENDS_WITH", "STR_CONTAINS":
      guard let list = values, !list.isEmpty else { throw Broken(reason: "\(op) on '\(contextName)' has no values") }
      let kind: UnleashRule.StringTest = op == "STR_STARTS_WITH" ? .startsWith : (op == "STR_ENDS_WITH" ? .endsWith : .contains)
      check = .strings(field, kind, caseInsensitive ? list.map { $0.lowercased() } : list, ignoreCase: caseInsensitive)
    case "REGEX":
      // The engine reads `value` (none: the empty pattern, which every value matches) and searches the value for it.
      let pattern = value ?? ""
      guard let regex = RegularExpressionSearch(pattern, caseInsensitive: caseInsensitive) else {
        throw Broken(reason: "REGEX on '\(contextName)': '\(pattern)' is not a regular expression")
      }
      check = .regex(field, regex)
    case "NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE", "DATE_AFTER", "DATE_BEFORE", "SEMVER_EQ", "SEMVER_GT", "SEMVER_LT":
      guard let text = value else { throw Broken(reason: "\(op) on '\(contextName)' has no value") }
      if op.hasPrefix("SEMVER"), text.hasPrefix("v") { return .constant(false) }
      let order: UnleashRule.Order =
        switch op {
        case "NUM_EQ", "SEMVER_EQ": .equal
        case "NUM_GT", "DATE_AFTER", "SEMVER_GT": .greater
        case "NUM_GTE": .greaterOrEqual
        case "NUM_LTE": .lessOrEqual
        default: .less
        }
      check = try Self.ordered(field, order, text)
    default:
      return .constant(false)
    }
    return inverted ? .not(check) : check
  }

  /// The comparison the rule text compiles to, by the shape of `text`: the
  /// grammar tries a date, then a semantic version, then a number.
  static func ordered(_ field: UnleashRule.Field, _ order: UnleashRule.Order, _ text: String) throws(Broken) -> UnleashRule {
    if isRuleDate(text) {
      guard let date = UnleashRule.instant(text) else { throw Broken(reason: "'\(text)' is not a date") }
      return .date(field, order, date)
    }
    if isRuleVersion(text) {
      guard let version = SemanticVersion(strict: text) else { throw Broken(reason: "'\(text)' is not a semantic version") }
      return .version(field, order, version)
    }
    if isRuleNumber(text), let number = Double(text) {
      return .number(field, order, number)
    }
    throw Broken(reason: "'\(text)' is neither a date, a semantic version nor a number")
  }

  /// `YYYY-MM-DDTHH:MM:SS(.fff)?(Z|±HH:MM)`, as the rule grammar spells a date.
  static func isRuleDate(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    func digits(_ range: Range<Int>) -> Bool { range.upperBound <= bytes.count && bytes[range].allSatisfy { (48...57).contains($0) } }
    guard bytes.count >= 20, digits(0..<4), bytes[4] == 45, digits(5..<7), bytes[7] == 45, digits(8..<10), bytes[10] == 84,
      digits(11..<13), bytes[13] == 58, digits(14..<16), bytes[16] == 58, digits(17..<19)
    else { return false }
    var offset = 19
    if bytes[offset] == 46 {
      guard digits(offset + 1..<offset + 4) else { return false }
      offset += 4
    }
    if offset + 1 == bytes.count, bytes[offset] == 90 { return true }
    return offset + 6 == bytes.count && (bytes[offset] == 43 || bytes[offset] == 45) && digits(offset + 1..<offset + 3)
      && bytes[offset + 3] == 58 && digits(offset + 4..<offset + 6)
  }

  /// Three dot-separated digit runs, then `-` and `+` fragments of letters, digits and `-`.
  static func isRuleVersion(_ text: String) -> Bool {
    var core = Substring(text)
    var fragments: [Substring] = []
    for marker: Character in ["+", "-"] {
      if let index = core.firstIndex(of: marker) {
        fragments.append(core[core.index(after: index)...])
        core = core[..<index]
      }
    }
    let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
    guard numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return false }
    return fragments.allSatisfy { fragment in
      fragment.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
        !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
      }
    }
  }

  /// `[+-]?digits(.digits*)?([eE][+-]?digits)?`, as the rule grammar spells a number.
  static func isRuleNumber(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    func integer() -> Bool {
      if let first = bytes.first, first == 43 || first == 45 { bytes = bytes.dropFirst() }
      let count = bytes.prefix { (48...57).contains($0) }.count
      bytes = bytes.dropFirst(count)
      return count > 0
    }
    guard integer() else { return false }
    if bytes.first == 46 {
      bytes = bytes.dropFirst()
      bytes = bytes.dropFirst(bytes.prefix { (48...57).contains($0) }.count)
    }
    if let first = bytes.first, first == 101 || first == 69 {
      bytes = bytes.dropFirst()
      guard integer() else { return false }
    }
    return bytes.isEmpty
  }
}
