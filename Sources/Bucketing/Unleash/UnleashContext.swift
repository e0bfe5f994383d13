// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// The context a feature is evaluated for, as the Python client hands it to
/// the engine: the standard fields and `properties`, every value as text.
public struct UnleashContext: Sendable {
  public var userId: String?
  public var sessionId: String?
  public var environment: String?
  public var appName: String?
  /// `currentTime` as given; without one, the clock's time, written when a rule asks for it.
  public var givenCurrentTime: String?
  public var now: Date
  public var remoteAddress: String?
  public var properties: [String: String]

  /// The fields the engine reads by name; every other member is a property.
  static let standardFields: Set<String> = ["userId", "sessionId", "environment", "appName", "currentTime", "remoteAddress", "properties"]

  /// `{"userId": userID}` with `attributes` laid over it, as the client
  /// builds it: members other than the standard fields become properties
  /// (over the members of `properties` of the same name), each value turned into text as
  /// Python's `str` would (`True`, `5`, `2.5`, `None`), and `currentTime`
  /// is `now` (ISO 8601) unless given.
  public init(userID: String, attributes: [String: JSONValue], now: Date) {
    var members = attributes
    if members["userId"] == nil { members["userId"] = .string(userID) }
    func text(_ name: String) -> String? { members[name].map(\.pythonString) }
    userId = text("userId")
    sessionId = text("sessionId")
    environment = text("environment")
    appName = text("appName")
    remoteAddress = text("remoteAddress")
    givenCurrentTime = text("currentTime")
    self.now = now
    var properties: [String: String] = [:]
    if case .object(let given)? = members["properties"] {
      for (name, value) in given { properties[name] = value.pythonString }
    }
    for (name, value) in members where !Self.standardFields.contains(name) {
      properties[name] = value.pythonString
    }
    self.properties = properties
  }

  /// `currentTime` as the engine reads it: as given, else `now` as Python's
  /// `datetime.now(timezone.utc).isoformat()` writes it.
  public var currentTime: String {
    givenCurrentTime ?? Self.isoFormat(now)
  }

  /// `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`.
  static func isoFormat(_ date: Date) -> String {
    let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
    let seconds = microseconds.quotient(dividingBy: 1_000_000), fraction = microseconds - seconds * 1_000_000
    let days = seconds.quotient(dividingBy: 86_400), time = seconds - days * 86_400
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468, era = z.quotient(dividingBy: 146_097), dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1, month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func pad(_ value: Int64, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
    let clock = "\(pad(time / 3600, 2)):\(pad(time % 3600 / 60, 2)):\(pad(time % 60, 2))"
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(clock)" + (fraction == 0 ? "" : ".\(pad(fraction, 6))") + "+00:00"
  }
}

extension Int64 {
  /// Division rounded toward negative infinity.
  fileprivate func quotient(dividingBy divisor: Int64) -> Int64 {
    let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? quotient - 1 : quotient
  }
}
