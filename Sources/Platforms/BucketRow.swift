import JSONDocument
import Results

/// One id in one experiment or flag.
public struct BucketRow: Sendable {
  public let id: String
  public let experiment: String
  public let variation: String?
  /// The variation's value where the platform decides an index (a
  /// LaunchDarkly flag's variations, a GrowthBook rule's), as the team knows
  /// it: `control`.
  public let value: String?
  /// The platform's bucket (Optimizely's 0 ..< 10,000) or hash in [0, 1).
  public let bucket: Double?
  public let reason: String

  public init(id: String, experiment: String, variation: String?, value: String? = nil, bucket: Double?, reason: String) {
    self.id = id
    self.experiment = experiment
    self.variation = variation
    self.value = value
    self.bucket = bucket
    self.reason = reason
  }

  /// The variation as printed: its index and, where it has one that says more, its value (`1 (treatment)`).
  public var label: String? {
    variation.map { Self.label($0, value: value) }
  }

  /// An index with its value beside it, unless the value is the index's own text (variations 0 and 1).
  public static func label(_ variation: String, value: String?) -> String {
    guard let value, value != variation else { return variation }
    return "\(variation) (\(value))"
  }

  /// A variation's value as a team names it: a string as written, anything else as its JSON kind's text.
  public static func valueText(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): text
    case .bool(let flag): flag ? "true" : "false"
    case .integer(let number): String(number)
    case .number(let number): String(number)
    case .null: "null"
    case .array, .object: value.typeName
    }
  }

  public var json: OrderedJSON {
    .object(
      [("id", .string(id)), ("experiment", .string(experiment)), ("variation", variation.map(OrderedJSON.string) ?? .null)]
        + (value.map { [("value", OrderedJSON.string($0))] } ?? [])
        + [("bucket", .number(bucket)), ("reason", .string(reason))])
  }

  public var text: String {
    let bucketText = bucket.map { value in
      value == value.rounded() ? "bucket \(Int(value)), " : "hash \(value), "
    } ?? ""
    return "\(id) \(experiment): \(label ?? "no variation") (\(bucketText)\(reason))"
  }
}
