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
