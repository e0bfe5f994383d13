/// A continuous metric's amounts over the devices a variant counts, by size,
/// for its quantiles: distinct values in ascending order, each standing for
/// the amounts within 2⁻⁸ of it, with how many devices had them.
public struct AmountDistribution: Hashable, Sendable {
  public var metric: String
  /// The quantiles the scenario asks of the metric, e.g. 0.5 and 0.9.
  public var quantiles: [Double]
  public var values: [Double]
  public var counts: [Int]
  /// The smallest and largest amount each value stands for (its bucket's
  /// edges), which bound the quantiles' intervals.
  public var lowerEdges: [Double], upperEdges: [Double]
  /// The lift the scenario gives the variant's amounts over the baseline's.
  /// A lift scales every amount of a device, so where it is the same in
  /// every segment every quantile moves by it too; `nil` where segments
  /// differ, or for real data.
  public var trueLift: Double?

  public init(
    metric: String, quantiles: [Double], values: [Double], counts: [Int], lowerEdges: [Double]? = nil,
    upperEdges: [Double]? = nil, trueLift: Double?
  ) {
    self.metric = metric
    self.quantiles = quantiles
    self.values = values
    self.counts = counts
    self.lowerEdges = lowerEdges ?? values
    self.upperEdges = upperEdges ?? values
    self.trueLift = trueLift
  }
}
