/// A continuous metric over the devices a variant counts with every amount
/// above a cap counted as the cap: the cap is the experiment's pooled
/// percentile, the same for every variant, so that a few huge amounts sway
/// the comparison less. Its truth stays the uncapped metric's: how far the
/// capped lift falls from it is the bias winsorizing buys its variance with.
public struct WinsorizedSummary: Hashable, Sendable {
  /// The metric capped, e.g. revenue.
  public var metric: String
  /// The percentile capped at, e.g. 0.99.
  public var percentile: Double
  /// The cap, or `nil` where the experiment counted no devices.
  public var cap: Double?
  /// Devices whose amount was above the cap.
  public var capped: Int
  /// The capped amounts, named as the analysis knows them (`revenue.w99`),
  /// with the uncapped metric's true mean and lift.
  public var summary: MetricSummary

  public init(metric: String, percentile: Double, cap: Double?, capped: Int, summary: MetricSummary) {
    self.metric = metric
    self.percentile = percentile
    self.cap = cap
    self.capped = capped
    self.summary = summary
  }
}
