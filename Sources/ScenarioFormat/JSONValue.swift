import Foundation

/// A parsed JSON document, kept as a tree so that the scenario reader can say
/// exactly which path holds a wrong value and which fields it does not know.
enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses `data`, or throws a `ScenarioError` at `$` saying why it is not JSON.
  static func parse(_ data: Data) throws(ScenarioError) -> JSONValue {
    do {
      return try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw ScenarioError(path: "$", message: "is not valid JSON (\(Self.reason(error))): check for a missing comma, quote or bracket")
    }
  }

  private static func reason(_ error: any Error) -> String {
    guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
    if let underlying = context.underlyingError as NSError?,
      let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
    {
      return detail
    }
    return context.debugDescription
  }

  /// The name of the value's JSON type, for messages.
  var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer, .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

extension JSONValue: Decodable {
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}
