// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A user attribute, condition operand or payload value as the services' JSON
/// carries it. Numbers keep whether they were written as integers, because
/// both SDKs compare `2` and `2.0` alike but print them differently.
public enum AttributeValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([AttributeValue])
  case object([String: AttributeValue])

  /// The number, for a number (not a boolean).
  public var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The string, for a string.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The members, for an object.
  public var object: [String: AttributeValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The elements, for an array.
  public var array: [AttributeValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// Reads a value from JSON text.
  public init(json: Data) throws {
    self = try JSONDecoder().decode(AttributeValue.self, from: json)
  }
}

extension AttributeValue: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([AttributeValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: AttributeValue].self))
    }
  }
}

extension AttributeValue: CustomStringConvertible {
  /// The value as compact JSON, e.g. `"iOS"`, `2.5`, `true`.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .number(let value):
      return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    case .string(let value): return "\"\(value)\""
    case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!)" }.joined(separator: ",") + "}"
    }
  }
}
