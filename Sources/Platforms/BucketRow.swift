import Results

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
