// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A parsed JSON document, kept as a tree so that a reader can say exactly
/// which path holds a wrong value. An integer keeps being an integer: vendors'
/// SDKs treat `5` and `5.0` differently (LaunchDarkly buckets by the one and
/// not the other), and scenarios count devices in integers.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses `data` strictly (see `JSONParser`), or throws a `JSONError` with
  /// the line and column, or the path, of the first problem.
  public static func parse(_ data: Data) throws(JSONError) -> JSONValue {
    try JSONParser.parse([UInt8](data))
  }

  /// The name of the value's JSON type, for messages.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer, .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The number as a double, for an integer or a number.
  public var double: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// The string, for a string.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The members, for an object.
  public var object: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The elements, for an array.
  public var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }
}
