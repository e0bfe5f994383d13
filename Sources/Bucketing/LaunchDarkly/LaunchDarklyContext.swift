// SPDX-License-Identifier: Apache-2.0

import JSONDocument

/// A single context of kind "user", as an app builds it: a key and attributes.
/// The SDK refuses a context whose key is empty and serves every flag's default.
public struct LaunchDarklyContext: Sendable {
  public let key: String
  public let kind = "user"
  /// Attributes by name, each with its JSON type; `name` only when a string.
  public let attributes: [String: JSONValue]

  public init(key: String, attributes: [String: JSONValue]) {
    self.key = key
    // `key`, `kind` and `anonymous` are not attributes, `_meta` cannot be set,
    // `name` takes a string only, and null removes an attribute (ContextBuilder.try_set).
    self.attributes = attributes.filter { name, value in
      switch name {
      case "", "_meta", "key", "kind", "anonymous": false
      case "name": value.string != nil
      default: value != .null
      }
    }
  }

  /// The same context for another key: what a loop over ids changes.
  public func with(key: String) -> LaunchDarklyContext {
    LaunchDarklyContext(key: key, filteredAttributes: attributes)
  }

  private init(key: String, filteredAttributes: [String: JSONValue]) {
    self.key = key
    attributes = filteredAttributes
  }

  /// Whether the SDK evaluates flags for this context at all.
  public var isValid: Bool { !key.isEmpty }

  /// The value an attribute reference reads, nil when there is none.
  func value(_ reference: LaunchDarklyAttributeReference) -> JSONValue? {
    guard let first = reference.components.first else { return nil }
    var value: JSONValue? =
      switch first {
      case "key": .string(key)
      case "kind": .string(kind)
      case "anonymous": .bool(false)
      default: attributes[first]
      }
    for component in reference.components.dropFirst() {
      guard case .object(let members)? = value else { return nil }
      value = members[component]
    }
    return value
  }
}
