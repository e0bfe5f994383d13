// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A strategy compiled as the engine compiles it: checks joined by and/or,
/// evaluated for a context and the name of the toggle being asked about
/// (a rollout without a group id hashes with that name).
indirect enum UnleashRule: Sendable {
  case constant(Bool)
  case not(UnleashRule)
  case all([UnleashRule])
  case any([UnleashRule])
  /// `percent`% of the contexts, by the first of `stickiness` that is set.
  case rollout(percent: Int, stickiness: [Field], groupID: String?)
  /// The engine's random draw, 0 to 98, below `bound`.
  case random(below: Int)
  case list(Field, Set<ExactText>, isIn: Bool, empty: Bool)
  case strings(Field, StringTest, [String], ignoreCase: Bool)
  case regex(Field, RegularExpressionSearch)
  case number(Field, Order, Double)
  case date(Field, Order, Instant)
  case version(Field, Order, SemanticVersion)
  case address(Field, [UnleashNetwork])
  case hostname(Set<String>)

  enum StringTest: Sendable { case startsWith, endsWith, contains }
  enum Order: Sendable { case less, lessOrEqual, equal, greaterOrEqual, greater }

  /// A context field; `random` is the engine's draw, a fresh number each time it is read.
  enum Field: Sendable, Hashable {
    case userId, sessionId, environment, appName, currentTime, remoteAddress, random
    case property(String)

    init(_ contextName: String) {
      switch contextName {
      case "userId": self = .userId
      case "sessionId": self = .sessionId
      case "environment": self = .environment
      case "appName": self = .appName
      case "currentTime": self = .currentTime
      case "remoteAddress": self = .remoteAddress
      default: self = .property(contextName)
      }
    }
  }

  /// A time to the nanosecond, for comparing dates as the engine does.
  struct Instant: Sendable, Comparable {
    let seconds: Int64
    let nanoseconds: Int64

    static func < (a: Instant, b: Instant) -> Bool {
      (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
  }

  /// How the bench stands in for the engine's random draws, which no run can
  /// repeat: a draw that cannot change the outcome (0% or 100%) is exact;
  /// any other is replaced by a hash of the context, and the decision says so.
  struct Evaluation {
    let context: UnleashContext
    let toggleName: String
    var usedRandom = false

    mutating func value(_ field: Field) -> String? {
      switch field {
      case .userId: return context.userId
      case .sessionId: return context.sessionId
      case .environment: return context.environment
      case .appName: return context.appName
      case .currentTime: return context.currentTime
      case .remoteAddress: return context.remoteAddress
      case .property(let name): return context.properties[name]
      case .random:
        usedRandom = true
        return String(MurmurHash3.x86_32("\(toggleName):\(context.userId ?? "")", seed: 1) % 99)
      }
    }
  }

  func matches(_ evaluation: inout Evaluation) -> Bool {
    switch self {
    case .constant(let value): return value
    case .not(let rule): return !rule.matches(&evaluation)
    case .all(let rules):
      for rule in rules where !rule.matches(&evaluation) { return false }
      return true
    case .any(let rules):
      for rule in rules where rule.matches(&evaluation) { return true }
      return false
    case .rollout(let percent, let stickiness, let groupID):
      guard let field = stickiness.first(where: { evaluation.peek($0) != nil }) else { return false }
      // A draw cannot move a hash from 1 ... 100 across 0% or 100%.
      if field == .random, percent == 0 || percent == 100 { return percent == 100 }
      let value = evaluation.value(field)!
      return Self.normalizedHash(group: groupID ?? evaluation.toggleName, identifier: value, modulus: 100, seed: 0) <= percent
    case .random(let bound):
      if bound <= 0 { return false }
      if bound >= 99 { return true }
      return Int(evaluation.value(.random)!)! < bound
    case .list(let field, let values, let isIn, let empty):
      if empty { return !isIn }
      guard let value = evaluation.value(field) else { return !isIn }
      return values.contains(exactly: value) == isIn
    case .strings(let field, let test, let values, let ignoreCase):
      guard var value = evaluation.value(field) else { return false }
      if ignoreCase { value = value.lowercased() }
      let text = Array(value.utf8)
      return values.contains { item in
        let part = Array(item.utf8)
        switch test {
        case .startsWith: return text.starts(with: part)
        case .endsWith: return text.reversed().starts(with: part.reversed())
        case .contains: return SubsequenceSearch.contains(text, part)
        }
      }
    case .regex(let field, let regex):
      guard let value = evaluation.value(field) else { return false }
      return regex.found(in: value)
    case .number(let field, let order, let bound):
      guard let text = evaluation.value(field), let value = Self.rustDouble(text) else { return false }
      if order == .equal { return abs(value - bound) < Double.ulpOfOne }
      return Self.compare(value, bound, order)
    case .date(let field, let order, let bound):
      guard let text = evaluation.value(field), let value = Self.instant(text) else { return false }
      return Self.compare(value, bound, order)
    case .version(let field, let order, let bound):
      guard let text = evaluation.value(field), let value = SemanticVersion(strict: text) else { return false }
      let comparison = value.compare(bound, includingBuild: true)
      return Self.compare(comparison, 0, order)
    case .address(let field, let networks):
      guard let text = evaluation.value(field), let address = UnleashNetwork.address(text) else { return false }
      return networks.contains { $0.contains(address) }
    case .hostname(let names):
      return names.contains(ProcessInfo.processInfo.environment["hostname"] ?? ProcessInfo.processInfo.hostName.lowercased())
    }
  }

  private static func compare<T: Comparable>(_ a: T, _ b: T, _ order: Order) -> Bool {
    switch order {
    case .less: a < b
    case .lessOrEqual: a <= b
    case .equal: a == b
    case .greaterOrEqual: a >= b
    case .greater: a > b
    }
  }

  /// murmur3 of "GROUP:IDENTIFIER", modulo `modulus`, plus 1: 1 to `modulus`.
  static func normalizedHash(group: String, identifier: String, modulus: UInt32, seed: UInt32) -> Int {
    Int(MurmurHash3.x86_32("\(group):\(identifier)", seed: seed) % modulus) + 1
  }

  /// A number as Rust's `f64::from_str` reads one: decimal digits with an
  /// optional sign, fraction and exponent, or inf, infinity and NaN.
  static func rustDouble(_ text: String) -> Double? {
    let lowered = text.lowercased()
    let unsigned = lowered.hasPrefix("+") || lowered.hasPrefix("-") ? lowered.dropFirst() : Substring(lowered)
    if unsigned == "inf" || unsigned == "infinity" { return lowered.hasPrefix("-") ? -.infinity : .infinity }
    if unsigned == "nan" { return .nan }
    guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "+" || $0 == "-") }) else {
      return nil
    }
    return Double(text)
  }

  /// A timestamp as chrono reads `DateTime<Utc>`: RFC 3339 with `T`, `t` or a
  /// space, any fraction, and `Z` or an offset (`±HH:MM`).
  static func instant(_ text: String) -> Instant? {
    let bytes = Array(text.utf8)
    func number(_ start: Int, _ count: Int) -> Int64? {
      guard start + count <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[start..<start + count] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      return value
    }
    guard bytes.count >= 20, let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
      let day = number(8, 2), [84, 116, 32].contains(bytes[10]), let hour = number(11, 2), bytes[13] == 58,
      let minute = number(14, 2), bytes[16] == 58, let second = number(17, 2),
      (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 61
    else { return nil }
    var offset = 19, nanoseconds: Int64 = 0
    if offset < bytes.count, bytes[offset] == 46 {
      offset += 1
      var digits = 0
      while offset < bytes.count, (48...57).contains(bytes[offset]) {
        if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[offset] - 48) }
        digits += 1
        offset += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<max(digits, 9) { nanoseconds *= 10 }
    }
    guard offset < bytes.count else { return nil }
    var zone: Int64 = 0
    if (bytes[offset] == 90 || bytes[offset] == 122), offset + 1 == bytes.count {
      zone = 0
    } else if bytes[offset] == 43 || bytes[offset] == 45, offset + 6 == bytes.count, let hours = number(offset + 1, 2),
      bytes[offset + 3] == 58, let minutes = number(offset + 4, 2), hours < 24, minutes < 60
    {
      zone = (hours * 3600 + minutes * 60) * (bytes[offset] == 43 ? 1 : -1)
    } else {
      return nil
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthDays: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard day <= monthDays[Int(month) - 1] else { return nil }
    let shifted = month <= 2 ? year - 1 : year
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    return Instant(seconds: days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - zone, nanoseconds: nanoseconds)
  }
}

extension UnleashRule.Evaluation {
  /// A field's value without counting it as a random draw.
  func peek(_ field: UnleashRule.Field) -> String? {
    var copy = self
    return copy.value(field)
  }
}
