// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// One condition of a rule: an attribute, an operator and the values it is
/// compared with; a match with any value is a match, then `negate` applies.
public struct LaunchDarklyClause: Sendable {
  public let contextKind: String?
  public let attribute: LaunchDarklyAttributeReference
  public let op: String
  public let values: [JSONValue]
  public let negate: Bool
  /// A `matches` clause's values compiled once, when the flag is read, rather than at every
  /// evaluation; `nil` for a value that is not a string or not a pattern (which never matches).
  private let patterns: [RegularExpressionSearch?]

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    contextKind = try reader.optional(members, "contextKind", path, reader.string)
    // Old data (no context kind) names an attribute literally; new data may give a path.
    attribute = LaunchDarklyAttributeReference(try reader.required(members, "attribute", path, reader.string), contextKind: contextKind)
    negate = try reader.optional(members, "negate", path, reader.bool) ?? false
    op = try reader.required(members, "op", path, reader.string)
    values = try reader.required(members, "values", path, reader.array)
    patterns = op == "matches" ? values.map { $0.string.flatMap { RegularExpressionSearch($0) } } : []
  }

  /// Whether one value of the context (not an array) matches any of the clause's values.
  func matchesSingle(_ contextValue: JSONValue) -> Bool {
    if op == "matches" {
      guard case .string(let text) = contextValue else { return false }
      return patterns.contains { $0?.found(in: text) ?? false }
    }
    return values.contains { Self.apply(op, contextValue, $0) }
  }

  /// The SDK's operators; an unknown operator never matches.
  static func apply(_ op: String, _ context: JSONValue, _ clause: JSONValue) -> Bool {
    switch op {
    case "in": return context.pythonEquals(clause)
    case "startsWith": return strings(context, clause) { $0.starts(with: $1) }
    case "endsWith": return strings(context, clause) { $0.reversed().starts(with: $1.reversed()) }
    case "contains": return strings(context, clause) { SubsequenceSearch.contains($0, $1) }
    case "matches":
      guard case .string(let pattern) = clause, case .string(let text) = context,
        let regex = RegularExpressionSearch(pattern)
      else { return false }
      return regex.found(in: text)
    case "lessThan": return numbers(context, clause, <)
    case "lessThanOrEqual": return numbers(context, clause, <=)
    case "greaterThan": return numbers(context, clause, >)
    case "greaterThanOrEqual": return numbers(context, clause, >=)
    case "before": return times(context, clause, <)
    case "after": return times(context, clause, >)
    case "semVerEqual": return versions(context, clause) { $0 == 0 }
    case "semVerLessThan": return versions(context, clause) { $0 < 0 }
    case "semVerGreaterThan": return versions(context, clause) { $0 > 0 }
    default: return false
    }
  }

  /// String operators compare Unicode scalars, as Python's `str` does (not Swift's characters).
  private static func strings(_ context: JSONValue, _ clause: JSONValue, _ test: ([Unicode.Scalar], [Unicode.Scalar]) -> Bool) -> Bool {
    guard case .string(let text) = context, case .string(let part) = clause else { return false }
    return test(Array(text.unicodeScalars), Array(part.unicodeScalars))
  }

  private static func numbers(_ context: JSONValue, _ clause: JSONValue, _ test: (Double, Double) -> Bool) -> Bool {
    guard let a = context.double, let b = clause.double else { return false }
    return test(a, b)
  }

  private static func times(_ context: JSONValue, _ clause: JSONValue, _ test: (Double, Double) -> Bool) -> Bool {
    guard let b = milliseconds(clause), let a = milliseconds(context) else { return false }
    return test(a, b)
  }

  private static func versions(_ context: JSONValue, _ clause: JSONValue, _ test: (Int) -> Bool) -> Bool {
    guard case .string(let b) = clause, let right = SemanticVersion(lenient: b),
      case .string(let a) = context, let left = SemanticVersion(lenient: a)
    else { return false }
    return test(left.compare(right))
  }

  /// A time as milliseconds since 1970: a number as it is, or an RFC 3339
  /// timestamp with a zone (`Z` or `±HH:MM`), as Python's `fromisoformat` reads one.
  static func milliseconds(_ value: JSONValue) -> Double? {
    if let number = value.double { return number }
    guard case .string(let text) = value else { return nil }
    let scalars = Array(text.utf8)
    func digits(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= scalars.count else { return nil }
      var result = 0
      for byte in scalars[start..<start + count] {
        guard (48...57).contains(byte) else { return nil }
        result = result * 10 + Int(byte - 48)
      }
      return result
    }
    guard scalars.count >= 20, let year = digits(0, 4), scalars[4] == 45, let month = digits(5, 2), scalars[7] == 45,
      let day = digits(8, 2), [84, 116, 32].contains(scalars[10]), let hour = digits(11, 2), scalars[13] == 58,
      let minute = digits(14, 2), scalars[16] == 58, let second = digits(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
    else { return nil }
    var offset = 19, microseconds = 0
    if offset < scalars.count, scalars[offset] == 46 {
      offset += 1
      let start = offset
      while offset < scalars.count, (48...57).contains(scalars[offset]) { offset += 1 }
      let count = offset - start
      guard count == 3 || count == 6 else { return nil }
      microseconds = digits(start, count)! * (count == 3 ? 1000 : 1)
    }
    guard offset < scalars.count else { return nil }
    var zoneSeconds = 0
    if scalars[offset] == 90 || scalars[offset] == 122, offset + 1 == scalars.count {
      zoneSeconds = 0
    } else if scalars[offset] == 43 || scalars[offset] == 45, offset + 6 == scalars.count, let hours = digits(offset + 1, 2),
      scalars[offset + 3] == 58, let minutes = digits(offset + 4, 2), hours < 24, minutes < 60
    {
      zoneSeconds = (hours * 3600 + minutes * 60) * (scalars[offset] == 43 ? 1 : -1)
    } else {
      return nil
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard year >= 1, day <= monthDays[month - 1] else { return nil }
    // Days from 1970-01-01 (the civil-from-days arithmetic, proleptic Gregorian).
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - zoneSeconds
    // Python: timedelta.total_seconds() (microseconds / 10⁶), then × 1000.
    return Double(seconds * 1_000_000 + microseconds) / 1_000_000 * 1000
  }
}
