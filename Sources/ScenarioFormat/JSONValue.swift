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

  /// Parses `data` strictly (see `JSONParser`), or throws a `ScenarioError`
  /// with the line and column, or the path, of the first problem.
  static func parse(_ data: Data) throws(ScenarioError) -> JSONValue {
    try JSONParser.parse([UInt8](data))
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
