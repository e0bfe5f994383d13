/// One variant of an experiment.
public struct VariantResult: Hashable, Sendable {
  public var name: String
  /// The weight in the last version that defines the variant; `nil` when unknown.
  public var weight: Int?
  /// Devices with a "displayed" event for this variant.
  public var exposed: Int
  /// Of those, devices shown another variant of the experiment too.
  public var contaminated: Int
  /// Devices first shown this variant: each exposed device counts once.
  public var firstExposed: Int
  /// The devices the configuration and its history should have first shown
  /// this variant (see `VariantTally.expectedFirstExposed`); `nil` for real data.
  public var expectedFirstExposed: Double?
  /// Per metric, in the scenario's order.
  public var metrics: [MetricSummary]
  /// Per ratio metric, in the scenario's order; empty for real data.
  public var ratios: [RatioSummary] = []
  /// Per metric with quantiles, in the scenario's order; empty for real data.
  public var distributions: [AmountDistribution] = []
  /// Per winsorized metric, in the scenario's order; empty for real data.
  public var winsorized: [WinsorizedSummary] = []
  /// The version whose definition of the experiment deleted the variant,
  /// when the plan's last definition no longer has it: the variant is then
  /// retired, no candidate for the decision. `nil` for real data.
  public var retiredIn: String?

  public init(
    name: String,
    weight: Int?,
    exposed: Int,
    contaminated: Int,
    firstExposed: Int,
    expectedFirstExposed: Double?,
    metrics: [MetricSummary]
  ) {
    self.name = name
    self.weight = weight
    self.exposed = exposed
    self.contaminated = contaminated
    self.firstExposed = firstExposed
    self.expectedFirstExposed = expectedFirstExposed
    self.metrics = metrics
  }
}
