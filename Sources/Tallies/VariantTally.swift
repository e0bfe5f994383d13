/// What happened to the devices of one variant.
public struct VariantTally: Hashable, Sendable {
  /// Devices with a "displayed" event for the variant.
  public var exposed = 0
  /// Of those, devices that were displayed another variant of the experiment too.
  public var contaminated = 0
  /// Devices whose first displayed variant of the experiment this is.
  public var firstExposed = 0
  /// The sum over first-exposed devices of each device's chance of being
  /// first shown this variant, given the version whose weights selected its
  /// variant and the variants later versions deleted: the split the
  /// configuration should produce, for the sample ratio mismatch check.
  public var expectedFirstExposed = ExactSum()
  /// Per metric, the devices whose first displayed variant this is.
  public var firstExposure: [MetricTally]
  /// Per metric, the devices displayed this variant and no other.
  public var uncontaminated: [MetricTally]
  /// Devices an `EnrollmentRule` enrolled in this variant, shown or not.
  public var enrolled = 0
  /// Of those, devices shown the experiment.
  public var enrolledShown = 0
  /// Per metric, those enrolled devices: the diluted estimate's sample.
  public var enrolledOutcomes: [MetricTally]
  /// Per metric, the covariates of the devices counted under the scenario's
  /// attribution (`firstExposure`, or `uncontaminated` when contaminated
  /// devices are excluded); empty for a metric without one.
  public var covariates: [CovariateTally]
  /// Per ratio of the scenario, Σ numerator × denominator over the same
  /// devices: with the two metrics' own sums, the ratio's delta-method variance.
  public var ratios: [CrossProducts]
  /// Per metric with quantiles or winsorization (`Metric.countsAmounts`), in
  /// the scenario's order, the amounts of the same devices by size.
  public var histograms: [AmountHistogram]

  /// - Parameters:
  ///   - stepExponents: each metric's grid (`Moments.stepExponent`).
  ///   - ratios: how many ratio metrics the scenario has.
  ///   - histograms: an empty histogram per metric that counts its amounts.
  public init(stepExponents: [Int], ratios: Int = 0, histograms: [AmountHistogram] = []) {
    firstExposure = stepExponents.map(MetricTally.init(stepExponent:))
    uncontaminated = firstExposure
    enrolledOutcomes = firstExposure
    covariates = Array(repeating: CovariateTally(), count: stepExponents.count)
    self.ratios = Array(repeating: CrossProducts(), count: ratios)
    self.histograms = histograms
  }

  package mutating func merge(_ other: VariantTally) {
    exposed += other.exposed
    contaminated += other.contaminated
    firstExposed += other.firstExposed
    expectedFirstExposed.merge(other.expectedFirstExposed)
    enrolled += other.enrolled
    enrolledShown += other.enrolledShown
    for index in firstExposure.indices {
      firstExposure[index].merge(other.firstExposure[index])
      uncontaminated[index].merge(other.uncontaminated[index])
      enrolledOutcomes[index].merge(other.enrolledOutcomes[index])
      covariates[index].merge(other.covariates[index])
    }
    for index in ratios.indices { ratios[index].merge(other.ratios[index]) }
    for index in histograms.indices { histograms[index].merge(other.histograms[index]) }
  }
}
