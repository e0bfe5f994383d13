import Tallies

/// Everything a run records about one experiment.
public struct ExperimentTally: Hashable, Sendable {
  /// By global variant number.
  public var variants: [VariantTally]
  /// Devices displayed more than one variant of the experiment.
  public var mixedDevices = 0
  /// By `from * versions + to`, for upgrades a device made between launches.
  public var transitions: [TransitionCounts]
  /// Devices displayed each variant for the first time on each day, by
  /// `day * variants + variant`: summed over the days, a variant's `exposed`.
  public var dailyNewExposures: [Int]
  /// Per metric, the devices on which an enrollment rule's experiment was
  /// active but which never enrolled: what counting them as the baseline adds.
  public var neverEnrolled: [MetricTally]
  /// How many devices those are, counted whether or not the scenario has metrics.
  public var neverEnrolledDevices = 0
  /// Per metric, the devices counted under the scenario's attribution, by the
  /// day they were first displayed the experiment: `(day * variants + variant) * metrics + metric`.
  public var dailyCohorts: [MetricTally]
  /// For an experiment with novelty (`Novelty`), per metric, the devices first displayed it by the
  /// end of each day, each at the outcome its display days up to that day give: what a look on the
  /// day reads while the lift still moves, which no sum of cohorts counted at the run's end can
  /// give. By the same index as `dailyCohorts`; empty without novelty.
  public var noveltyLooks: [MetricTally]

  init(
    variants: Int, versions: Int, days: Int, stepExponents: [Int], ratios: Int, histograms: [AmountHistogram],
    hasNovelty: Bool
  ) {
    self.variants = Array(
      repeating: VariantTally(stepExponents: stepExponents, ratios: ratios, histograms: histograms),
      count: variants)
    transitions = Array(repeating: TransitionCounts(), count: versions * versions)
    dailyNewExposures = Array(repeating: 0, count: days * variants)
    dailyCohorts = (0..<(days * variants)).flatMap { _ in stepExponents.map(MetricTally.init(stepExponent:)) }
    noveltyLooks = hasNovelty ? dailyCohorts : []
    neverEnrolled = stepExponents.map(MetricTally.init(stepExponent:))
  }
}
