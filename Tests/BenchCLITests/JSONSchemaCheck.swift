import Foundation

import JSONDocument
@testable import ScenarioFormat

/// A JSON Schema check of the keywords docs/results.schema.json uses (type,
/// properties, required, additionalProperties, items, enum, minimum,
/// minLength, minItems, oneOf,
/// `$ref` into `$defs`), on the bench's own strict JSON reader, which keeps
/// integers, numbers and booleans apart as JSON does.
struct JSONSchemaCheck {
  private let root: JSONValue

  init(schema: Data) throws {
    root = try JSONValue.parse(schema)
  }

  /// Every place where `document` breaks the schema, as "path: problem".
  func problems(in document: Data) throws -> [String] {
    var problems: [String] = []
    check(try JSONValue.parse(document), against: root, at: "$", problems: &problems)
    return problems
  }

  private func member(_ name: String, of schema: JSONValue) -> JSONValue? {
    guard case .object(let members) = schema else { return nil }
    return members[name]
  }

  private func resolve(_ schema: JSONValue) -> JSONValue {
    guard case .string(let reference)? = member("$ref", of: schema), reference.hasPrefix("#/$defs/"),
      let definition = member("$defs", of: root).flatMap({ member(String(reference.dropFirst(8)), of: $0) })
    else { return schema }
    return resolve(definition)
  }

  private func typeName(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "boolean"
    case .integer: return "integer"
    case .number(let number): return number.rounded() == number ? "integer" : "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  private func check(_ value: JSONValue, against unresolved: JSONValue, at path: String, problems: inout [String]) {
    let schema = resolve(unresolved)
    if case .array(let options)? = member("oneOf", of: schema) {
      let matching = options.filter { option in
        var found: [String] = []
        check(value, against: option, at: path, problems: &found)
        return found.isEmpty
      }
      if matching.count != 1 { problems.append("\(path): matches \(matching.count) of the oneOf schemas") }
      return
    }
    if let type = member("type", of: schema) {
      let allowed: [String]
      switch type {
      case .string(let name): allowed = [name]
      case .array(let names): allowed = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
      default: allowed = []
      }
      let actual = typeName(value)
      guard allowed.contains(actual) || (actual == "integer" && allowed.contains("number")) else {
        problems.append("\(path): is \(actual), not \(allowed.joined(separator: " or "))")
        return
      }
    }
    if case .array(let choices)? = member("enum", of: schema), !choices.contains(value) {
      problems.append("\(path): is not one of the allowed values")
    }
    if let minimum = member("minimum", of: schema) {
      let bound: Double? = if case .integer(let integer) = minimum { Double(integer) } else if case .number(let number) = minimum { number } else { nil }
      let number: Double? = if case .integer(let integer) = value { Double(integer) } else if case .number(let number) = value { number } else { nil }
      if let bound, let number, number < bound { problems.append("\(path): is below its minimum \(bound)") }
    }
    if case .integer(let least)? = member("minLength", of: schema), case .string(let text) = value, text.count < least {
      problems.append("\(path): is shorter than \(least)")
    }
    if case .integer(let least)? = member("minItems", of: schema), case .array(let elements) = value, elements.count < least {
      problems.append("\(path): has fewer than \(least) items")
    }
    switch value {
    case .object(let fields):
      let properties: [String: JSONValue] = if case .object(let properties)? = member("properties", of: schema) { properties } else { [:] }
      if case .array(let required)? = member("required", of: schema) {
        for case .string(let name) in required where fields[name] == nil { problems.append("\(path): lacks \(name)") }
      }
      for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
        if let property = properties[name] {
          check(field, against: property, at: "\(path).\(name)", problems: &problems)
        } else if let additional = member("additionalProperties", of: schema) {
          if additional == .bool(false) {
            problems.append("\(path): has \(name), which the schema does not describe")
          } else if additional != .bool(true) {
            check(field, against: additional, at: "\(path).\(name)", problems: &problems)
          }
        }
      }
    case .array(let elements):
      if let items = member("items", of: schema) {
        for (index, element) in elements.enumerated() { check(element, against: items, at: "\(path)[\(index)]", problems: &problems) }
      }
    default:
      break
    }
  }
}
