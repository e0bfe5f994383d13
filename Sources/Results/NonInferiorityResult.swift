/// A guardrail's verdict on one variant: whether the data rule out a loss of
/// the margin or more.
public struct NonInferiorityResult: Hashable, Sendable {
  /// The largest acceptable loss, as a relative lift (0.02: −2%).
  public var margin: Double
  public var test: TestSummary
  /// The one-sided p-value is below alpha: the launch is safe on the metric.
  public var isSafe: Bool

  public init(margin: Double, test: TestSummary, isSafe: Bool) {
    self.margin = margin
    self.test = test
    self.isSafe = isSafe
  }
}
