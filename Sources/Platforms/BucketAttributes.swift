import Bucketing
import JSONDocument

/// `--attributes`, read once by the command into both forms the platforms'
/// SDK ports take: `values` (Optimizely's and GrowthBook's attributes) and
/// `json`, which keeps integers apart from other numbers (the others' contexts).
public struct BucketAttributes: Sendable {
  public let values: [String: AttributeValue]
  public let json: [String: JSONValue]

  public init(values: [String: AttributeValue], json: [String: JSONValue]) {
    self.values = values
    self.json = json
  }
}

extension AttributeValue {
  /// The attribute as JSON for the platforms whose contexts are JSON; the
  /// app's version parts are whole numbers.
  var jsonValue: JSONValue {
    switch self {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .integer(Int64(number)) : .number(number)
    case .string(let text): .string(text)
    case .array(let values): .array(values.map(\.jsonValue))
    case .object(let members): .object(members.mapValues(\.jsonValue))
    }
  }
}
