// SPDX-License-Identifier: Apache-2.0

import JSONDocument

/// A `StatsigUser`: a user id and the attributes the console's conditions
/// read, each kept with its JSON type (the SDK compares them as given).
public struct StatsigUser: Sendable {
  public private(set) var userID: String
  public let fields: [String: JSONValue]
  public let custom: [String: JSONValue]
  public let privateAttributes: [String: JSONValue]
  /// Custom ids by id type, each as text (the SDK applies `str`).
  public let customIDs: [String: String]

  /// The fields a user object names; `custom`, `privateAttributes` and `customIDs` hold the rest.
  public static let standardFields = ["email", "ip", "userAgent", "country", "locale", "appVersion"]

  /// `attributes` is a Statsig user object without `userID`.
  public init(userID: String, attributes: [String: JSONValue]) {
    self.userID = userID
    fields = attributes.filter { Self.standardFields.contains($0.key) && $0.value != .null }
    custom = attributes["custom"]?.object ?? [:]
    privateAttributes = attributes["privateAttributes"]?.object ?? [:]
    customIDs = (attributes["customIDs"]?.object ?? [:]).mapValues(\.pythonString)
  }

  /// The same user with another id: what a loop over ids changes.
  public func with(userID: String) -> StatsigUser {
    var user = self
    user.userID = userID
    return user
  }

  /// Whether the SDK accepts the user: a user id or at least one custom id.
  public var isValid: Bool { !userID.isEmpty || !customIDs.isEmpty }

  /// The id a rule or condition of `idType` hashes: the user id, or the custom id of that type.
  func unitID(_ idType: StatsigIDType) -> String? {
    guard let custom = idType.custom else { return userID }
    return customIDs[custom] ?? customIDs[custom.lowercased()]
  }

  /// A user field as conditions read it: the named field, else `custom`,
  /// else `privateAttributes` (an empty string counts as missing).
  func value(_ field: String) -> JSONValue? {
    var value: JSONValue?
    switch field.lowercased() {
    case "userid", "user_id": value = .string(userID)
    case "email": value = fields["email"]
    case "ip", "ipaddress", "ip_address": value = fields["ip"]
    case "useragent", "user_agent": value = fields["userAgent"]
    case "country": value = fields["country"]
    case "locale": value = fields["locale"]
    case "appversion", "app_version": value = fields["appVersion"]
    default: value = nil
    }
    func missing(_ value: JSONValue?) -> Bool { value == nil || value == .null || value == .string("") }
    if missing(value) {
      value = custom[field] ?? custom[StatsigCondition.casefold(field)] ?? value
    }
    if missing(value) {
      value = privateAttributes[field] ?? privateAttributes[field.lowercased()] ?? value
    }
    return value == .null ? nil : value
  }
}

/// A rule's or condition's `idType`, read once: the user id ("userID" in
/// any case, or none), or the name of a custom id.
struct StatsigIDType: Sendable {
  let custom: String?

  init(_ text: String?) {
    custom = text.flatMap { $0.lowercased() == "userid" ? nil : $0 }
  }
}
