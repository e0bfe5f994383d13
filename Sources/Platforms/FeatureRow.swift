import Bucketing
import Results

/// A feature's evaluation for one id (GrowthBook's): its value, where the
/// SDK says it came from, and the id of the rule that decided ("" for the default).
public struct FeatureRow: Sendable {
  public let id: String
  public let feature: String
  public let value: AttributeValue
  public let source: String
  public let rule: String

  public init(id: String, feature: String, value: AttributeValue, source: String, rule: String) {
    self.id = id
    self.feature = feature
    self.value = value
    self.source = source
    self.rule = rule
  }

  public var json: OrderedJSON {
    .object([
      ("id", .string(id)), ("feature", .string(feature)), ("value", Self.json(value)), ("source", .string(source)),
      ("rule", .string(rule)),
    ])
  }

  public var text: String {
    "\(id) \(feature) = \(Self.json(value).renderedOnOneLine()) (\(source)\(rule.isEmpty ? "" : ", rule \(rule)"))"
  }

  /// A feature's value as JSON, an object's members by key.
  static func json(_ value: AttributeValue) -> OrderedJSON {
    switch value {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .number(let number): .number(number)
    case .string(let text): .string(text)
    case .array(let values): .array(values.map(json))
    case .object(let members): .object(members.keys.sorted().map { ($0, json(members[$0]!)) })
    }
  }
}
