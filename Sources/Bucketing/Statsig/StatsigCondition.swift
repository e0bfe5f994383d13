// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// A condition of a rule: where its value comes from (`type`, `field`,
/// `idType`) and how it is compared with `targetValue` (`operator`), with
/// the Python SDK's own semantics: values compared as Python compares them
/// (`True == 1`), text by `str`, case folded where the operator says.
public struct StatsigCondition: Sendable {
  /// The type, lowercased.
  public let type: String
  /// The operator as written (the SDK compares it as written), and lowercased.
  public let rawOperator: String?
  public let op: String?
  /// The operator, read once: the SDK matches it as written, so "GT" is none of them.
  let comparison: Comparison
  /// Where the value comes from, read once.
  let source: Source
  /// A user-bucket condition under `any` or `none`: the SDK looks the bucket up among integers.
  let looksUpUserBucket: Bool

  /// The condition types the SDK reads, by their lowercased names.
  enum Source: String {
    case `public`, passGate = "pass_gate", failGate = "fail_gate"
    case multiPassGate = "multi_pass_gate", multiFailGate = "multi_fail_gate"
    case ipBased = "ip_based", uaBased = "ua_based", userField = "user_field", currentTime = "current_time"
    case environmentField = "environment_field", userBucket = "user_bucket", unitID = "unit_id", targetApp = "target_app"
    case unknown
  }

  /// The SDK's operators, as it spells them.
  enum Comparison: String {
    case gt, gte, lt, lte
    case versionGT = "version_gt", versionGTE = "version_gte", versionLT = "version_lt", versionLTE = "version_lte"
    case versionEQ = "version_eq", versionNEQ = "version_neq"
    case any, none
    case anyCaseSensitive = "any_case_sensitive", noneCaseSensitive = "none_case_sensitive"
    case startsWithAny = "str_starts_with_any", endsWithAny = "str_ends_with_any"
    case containsAny = "str_contains_any", containsNone = "str_contains_none", matches = "str_matches"
    case eq, neq, before, after, on
    case inSegmentList = "in_segment_list", notInSegmentList = "not_in_segment_list"
    case arrayContainsAny = "array_contains_any", arrayContainsNone = "array_contains_none"
    case arrayContainsAll = "array_contains_all", notArrayContainsAll = "not_array_contains_all"
    case unknown
  }
  public let targetValue: JSONValue?
  public let field: String
  public let idType: String
  let unit: StatsigIDType
  public let salt: JSONValue?
  /// A `str_matches` target compiled once, when the specs are read; `nil` without a target or when it
  /// is not a pattern, which the evaluation reports as the SDK's exception.
  private let pattern: RegularExpressionSearch?
  /// An `any`/`none` list's targets as `str()` gives them, case folded for
  /// `any` and `none`, as a set read once: the SDK compares a value with
  /// each in turn, and an audience of 20,000 values folded every target at
  /// every evaluation (2 replications of 300 devices took 19 s). `nil` when
  /// the target is not a list.
  private let stringTargets: Set<ExactText>?

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    type = (try reader.optional(members, "type", path, reader.string) ?? "").lowercased()
    rawOperator = try reader.optional(members, "operator", path, reader.string)
    op = rawOperator?.lowercased()
    comparison = rawOperator.flatMap(Comparison.init(rawValue:)) ?? .unknown
    source = Source(rawValue: type) ?? .unknown
    looksUpUserBucket = source == .userBucket && (op == "any" || op == "none")
    targetValue = members["targetValue"].flatMap { $0 == .null ? nil : $0 }
    field = try reader.optional(members, "field", path, reader.string) ?? ""
    idType = try reader.optional(members, "idType", path, reader.string) ?? "userID"
    unit = StatsigIDType(idType)
    salt = try reader.optional(members, "additionalValues", path, reader.object)?["salt"]
    pattern = comparison == .matches ? targetValue.flatMap { RegularExpressionSearch($0.pythonString) } : nil
    let folded = comparison == .any || comparison == .none
    if folded || comparison == .anyCaseSensitive || comparison == .noneCaseSensitive, case .array(let targets)? = targetValue {
      stringTargets = Set(targets.map { ExactText(folded ? Self.casefold($0.pythonString) : $0.pythonString) })
    } else {
      stringTargets = nil
    }
  }

  /// A Python exception in the SDK's evaluation: it then serves the default.
  struct Failure: Error {
    let reason: String
    /// A RecursionError, which the SDK lets through every nested evaluation to the caller's default.
    var isRecursion = false
  }

  /// Compares the condition's value (nil for None) with its target.
  func compare(_ value: JSONValue?, userBucketed: Bool) throws(Failure) -> Bool {
    let target = targetValue
    switch comparison {
    case .gt, .gte, .lt, .lte:
      guard let value, let target else { return false }
      let a = try Self.pythonFloat(value), b = try Self.pythonFloat(target)
      switch comparison {
      case .gt: return a > b
      case .gte: return a >= b
      case .lt: return a < b
      default: return a <= b
      }
    case .versionGT: return try Self.versions(value, target) { $0 > 0 }
    case .versionGTE: return try Self.versions(value, target) { $0 >= 0 }
    case .versionLT: return try Self.versions(value, target) { $0 < 0 }
    case .versionLTE: return try Self.versions(value, target) { $0 <= 0 }
    case .versionEQ: return try Self.versions(value, target) { $0 == 0 }
    case .versionNEQ: return try Self.versions(value, target) { $0 != 0 }
    case .any, .none:
      let found: Bool
      if userBucketed {
        guard case .integer(let bucket)? = value else { return comparison == .none }
        found = try bucketTargets().contains(bucket)
      } else {
        found = findString(value, folded: true)
      }
      return found == (comparison == .any)
    case .anyCaseSensitive: return findString(value, folded: false)
    case .noneCaseSensitive: return !findString(value, folded: false)
    case .startsWithAny: return try matchAny(value) { $0.starts(with: $1) }
    case .endsWithAny: return try matchAny(value) { $0.reversed().starts(with: $1.reversed()) }
    case .containsAny: return try matchAny(value, Self.contains)
    case .containsNone: return try !matchAny(value, Self.contains)
    case .matches:
      guard let value, let target else { return false }
      guard let pattern else { throw Failure(reason: "'\(target.pythonString)' is not a regular expression") }
      return pattern.found(in: value.pythonString)
    case .eq: return Self.pythonEquals(value, target)
    case .neq: return !Self.pythonEquals(value, target)
    case .before, .after, .on:
      if value == nil && target == nil { return false }
      guard let first = try Self.seconds(value), let second = try Self.seconds(target) else { return false }
      switch comparison {
      case .before: return first < second
      case .after: return first > second
      default: return first.quotient(86_400) == second.quotient(86_400)
      }
    case .inSegmentList: return false
    case .notInSegmentList: return true
    case .arrayContainsAny, .arrayContainsNone, .arrayContainsAll, .notArrayContainsAll:
      guard case .array(let elements)? = value else { return false }
      guard case .array(let targets)? = target else { throw Failure(reason: "\(rawOperator!) needs a list of targets") }
      let keys = targets.map(\.pythonString)
      func has(_ key: String) -> Bool {
        let integer = Self.pythonInt(key)
        if let integer, integer != 0, elements.contains(where: { Self.pythonEquals($0, .integer(integer)) }) { return true }
        return elements.contains { Self.pythonEquals($0, .string(key)) }
      }
      switch comparison {
      case .arrayContainsAny: return keys.contains(where: has)
      case .arrayContainsNone: return !keys.contains(where: has)
      case .arrayContainsAll: return keys.allSatisfy(has)
      default: return !keys.allSatisfy(has)
      }
    case .unknown:
      return false
    }
  }

  /// The targets of a user-bucket condition, read as Python's `int` reads them.
  private func bucketTargets() throws(Failure) -> Set<Int64> {
    guard case .array(let targets)? = targetValue else { return [] }
    var result: Set<Int64> = []
    for target in targets {
      switch target {
      case .integer(let number): result.insert(number)
      case .number(let number):
        // Python's int() of a huge float is a huge int, which no bucket (0 to 999) equals.
        if abs(number) < 1e18 { result.insert(Int64(number.rounded(.towardZero))) }
      case .bool(let flag): result.insert(flag ? 1 : 0)
      case .string(let text):
        guard let number = Self.pythonInt(text) else { throw Failure(reason: "the bucket '\(text)' is not an integer") }
        result.insert(number)
      default: throw Failure(reason: "a bucket is not an integer")
      }
    }
    return result
  }

  /// `str(value)` (case folded for any/none) among the targets.
  private func findString(_ value: JSONValue?, folded: Bool) -> Bool {
    guard let value, let stringTargets else { return false }
    return stringTargets.contains(ExactText(folded ? Self.casefold(value.pythonString) : value.pythonString))
  }

  /// Whether `str(value)` and any target, case folded, pass `test` (scalars compared).
  private func matchAny(_ value: JSONValue?, _ test: ([Unicode.Scalar], [Unicode.Scalar]) -> Bool) throws(Failure) -> Bool {
    guard let value, let target = targetValue else { return false }
    let items: [String]
    switch target {
    case .array(let elements): items = elements.compactMap { $0 == .null ? nil : $0.pythonString }
    case .string(let text): items = text.map(String.init)
    case .object(let members): items = Array(members.keys)
    default: throw Failure(reason: "the target of \(rawOperator ?? "") is not a list")
    }
    let text = Array(Self.casefold(value.pythonString).unicodeScalars)
    return items.contains { test(text, Array(Self.casefold($0).unicodeScalars)) }
  }

  private static func contains(_ text: [Unicode.Scalar], _ part: [Unicode.Scalar]) -> Bool {
    SubsequenceSearch.contains(text, part)
  }

  /// Python's `str.casefold`, as Foundation's case folding.
  static func casefold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive], locale: nil)
  }

  /// Python's `==` on JSON values: numbers by value, with `True == 1`; None equals None.
  static func pythonEquals(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    func number(_ value: JSONValue) -> Double? {
      if case .bool(let flag) = value { return flag ? 1 : 0 }
      return value.double
    }
    switch (a, b) {
    case (nil, nil), (nil, .null?), (.null?, nil): return true
    case (let a?, let b?):
      if case .integer(let x) = a, case .integer(let y) = b { return x == y }
      if let x = number(a), let y = number(b) { return x == y }
      if case .array(let x) = a, case .array(let y) = b { return x.count == y.count && zip(x, y).allSatisfy { pythonEquals($0, $1) } }
      if case .object(let x) = a, case .object(let y) = b { return x.count == y.count && x.allSatisfy { pythonEquals($0.value, y[$0.key]) && y[$0.key] != nil } }
      if case .string(let x) = a, case .string(let y) = b { return ExactText(x) == ExactText(y) }
      return a == b
    default: return false
    }
  }

  /// Python's `float(value)`: a boolean is 0 or 1, text is parsed (spaces
  /// around it allowed); anything else raises.
  static func pythonFloat(_ value: JSONValue) throws(Failure) -> Double {
    switch value {
    case .bool(let flag): return flag ? 1 : 0
    case .integer(let number): return Double(number)
    case .number(let number): return number
    case .string(let text):
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "_", with: "")
      let lowered = trimmed.lowercased()
      let unsigned = lowered.hasPrefix("+") || lowered.hasPrefix("-") ? String(lowered.dropFirst()) : lowered
      if ["inf", "infinity"].contains(unsigned) { return lowered.hasPrefix("-") ? -.infinity : .infinity }
      if unsigned == "nan" { return .nan }
      guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }), let number = Double(trimmed.replacingOccurrences(of: "_", with: "")) else {
        throw Failure(reason: "float('\(text)') raises ValueError")
      }
      return number
    default:
      throw Failure(reason: "float() of \(value.typeName) raises TypeError")
    }
  }

  /// Python's `int(text)` for a decimal integer (spaces around it allowed); nil when it raises.
  static func pythonInt(_ text: String) -> Int64? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let unsigned = trimmed.hasPrefix("+") || trimmed.hasPrefix("-") ? trimmed.dropFirst() : Substring(trimmed)
    guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int64(trimmed.hasPrefix("+") ? String(unsigned) : trimmed)
  }

  /// Statsig's version comparison: the text up to a "-" (not at the start),
  /// dot-separated parts read as `int(float(part))`, missing parts 0; false
  /// when a part is not a number.
  static func versions(_ value: JSONValue?, _ target: JSONValue?, _ test: (Int) -> Bool) throws(Failure) -> Bool {
    guard let value, let target else { return false }
    func cut(_ text: String) -> [Substring] {
      var text = Substring(text)
      if let dash = text.firstIndex(of: "-"), dash != text.startIndex { text = text[..<dash] }
      return text.split(separator: ".", omittingEmptySubsequences: false)
    }
    let a = cut(value.pythonString), b = cut(target.pythonString)
    for index in 0..<max(a.count, b.count) {
      func part(_ parts: [Substring]) throws(Failure) -> Double? {
        guard index < parts.count else { return 0 }
        guard let number = try? pythonFloat(.string(String(parts[index]))) else { return nil }
        guard number.isFinite else { throw Failure(reason: "int(float('\(parts[index])')) raises OverflowError") }
        return number.rounded(.towardZero)
      }
      guard let x = try part(a), let y = try part(b) else { return false }
      if x < y { return test(-1) }
      if x > y { return test(1) }
    }
    return test(0)
  }

  /// Seconds since 1970 as Statsig reads a date: `int(value)`, divided by
  /// 1000 when written with 11 characters or more (milliseconds).
  static func seconds(_ value: JSONValue?) throws(Failure) -> Int64? {
    guard let value else { return nil }
    let number: Int64
    switch value {
    case .integer(let integer): number = integer
    case .number(let double):
      // datetime.fromtimestamp raises for a time this far off.
      guard abs(double) < 1e18 else { throw Failure(reason: "a date of \(double) raises OverflowError") }
      number = Int64(double.rounded(.towardZero))
    case .bool(let flag): number = flag ? 1 : 0
    case .string(let text):
      guard let integer = pythonInt(text) else { throw Failure(reason: "int('\(text)') raises ValueError") }
      number = integer
    default: throw Failure(reason: "int() of \(value.typeName) raises")
    }
    return value.pythonString.count >= 11 ? number.quotient(1000) : number
  }
}

extension Int64 {
  /// Division rounded toward negative infinity, as Python's `//`.
  fileprivate func quotient(_ divisor: Int64) -> Int64 {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder != 0 && (remainder < 0) != (divisor < 0) ? quotient - 1 : quotient
  }
}
