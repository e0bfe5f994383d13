/// What the analysis concludes on one metric of one experiment.
public struct MetricAnalysis: Hashable, Sendable {
  /// The verdict results.json has carried since its first format: a
  /// winner when the recommendation ships one, "not trustworthy" when it is
  /// not to be trusted, otherwise "no winner".
  public enum Verdict: Hashable, Sendable {
    case winner(String)
    case noWinner
    case notTrustworthy(Distrust)
  }

  public var metric: String
  public var isConversion: Bool
  /// A ratio metric's analysis (`RatioSummary`), whose estimates are ratios.
  public var isRatio = false
  /// The quantile of a metric's amounts this analysis compares
  /// (`AmountDistribution`), whose estimates are that quantile's.
  public var quantile: Double?
  /// The percentile a winsorized metric's amounts are capped at
  /// (`WinsorizedSummary`), whose estimates are the capped means.
  public var winsorize: Double?

  /// What the analysis compares: "conversion", "continuous", "ratio",
  /// "quantile" or "winsorized".
  public var kind: String {
    isRatio ? "ratio" : quantile != nil ? "quantile" : winsorize != nil ? "winsorized" : isConversion ? "conversion" : "continuous"
  }
  /// Each variant's rate (Wilson interval), mean (t interval), ratio (normal
  /// interval) or quantile (order statistics), in variant order.
  public var estimates: [Estimate?]
  public var omnibus: TestSummary
  public var comparisons: [Comparison]
  public var power: PowerSummary?
  public var recommendation: Recommendation
  /// The variant with the best true lift above 0, when the truth is known.
  public var trueWinner: String?
  /// Whether the truth is known (a simulation) rather than not (real data).
  public var knowsTruth: Bool

  public init(
    metric: String, isConversion: Bool, estimates: [Estimate?], omnibus: TestSummary, comparisons: [Comparison],
    power: PowerSummary?, recommendation: Recommendation, trueWinner: String?, knowsTruth: Bool
  ) {
    self.metric = metric
    self.isConversion = isConversion
    self.estimates = estimates
    self.omnibus = omnibus
    self.comparisons = comparisons
    self.power = power
    self.recommendation = recommendation
    self.trueWinner = trueWinner
    self.knowsTruth = knowsTruth
  }

  public var verdict: Verdict {
    switch recommendation {
    case .ship(let variant): .winner(variant)
    case .doNotTrust(let distrust): .notTrustworthy(distrust)
    case .keepBaseline, .keepRunning: .noWinner
    }
  }

  /// Whether the recommendation is "do not trust": the analysis declined to decide.
  public var isAbstention: Bool {
    if case .doNotTrust = recommendation { return true }
    return false
  }

  /// The variant to ship, if any.
  public var winner: String? {
    if case .ship(let name) = recommendation { return name }
    return nil
  }
}
