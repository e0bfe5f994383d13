import Bucketing
import JSONDocument
import Results

/// What a platform decides for ids from its own file, experiment by
/// experiment, and why: the debug screen of those platforms, for `bench
/// bucket`, and what `bench impact` counts. `problems` are what the SDK
/// tolerates but the file's author should hear about once.
public struct BucketDecisions: Sendable {
  public let lines: [BucketLine]
  public let problems: [String]

  public init(lines: [BucketLine], problems: [String]) {
    self.lines = lines
    self.problems = problems
  }
}

/// A line `bench bucket` prints: an experiment's decision, or a feature's value.
public enum BucketLine: Sendable {
  case experiment(BucketRow)
  case feature(FeatureRow)

  public var json: OrderedJSON {
    switch self {
    case .experiment(let row): row.json
    case .feature(let row): row.json
    }
  }

  public var text: String {
    switch self {
    case .experiment(let row): row.text
    case .feature(let row): row.text
    }
  }
}

/// One id in one experiment or flag.
public struct BucketRow: Sendable {
  public let id: String
  public let experiment: String
  public let variation: String?
  /// The platform's bucket (Optimizely's 0 ..< 10,000) or hash in [0, 1).
  public let bucket: Double?
  public let reason: String

  public init(id: String, experiment: String, variation: String?, bucket: Double?, reason: String) {
    self.id = id
    self.experiment = experiment
    self.variation = variation
    self.bucket = bucket
    self.reason = reason
  }

  public var json: OrderedJSON {
    .object([
      ("id", .string(id)), ("experiment", .string(experiment)), ("variation", variation.map(OrderedJSON.string) ?? .null),
      ("bucket", .number(bucket)), ("reason", .string(reason)),
    ])
  }

  public var text: String {
    let bucketText = bucket.map { value in
      value == value.rounded() ? "bucket \(Int(value)), " : "hash \(value), "
    } ?? ""
    return "\(id) \(experiment): \(variation ?? "no variation") (\(bucketText)\(reason))"
  }
}

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
