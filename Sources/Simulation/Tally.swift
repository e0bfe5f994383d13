/// The count, mean and sum of squared deviations of a stream of values
/// (Welford's method), mergeable in a fixed order (Chan, Golub and LeVeque,
/// 1979) so that shard results combine to the same bits on every run.
public struct Moments: Hashable, Sendable {
  public private(set) var count: Int = 0
  public private(set) var mean: Double = 0
  /// The sum of squared deviations from the mean.
  public private(set) var squaredDeviations: Double = 0

  public init() {}

  public mutating func add(_ value: Double) {
    count += 1
    let delta = value - mean
    mean += delta / Double(count)
    squaredDeviations += delta * (value - mean)
  }

  public mutating func merge(_ other: Moments) {
    guard other.count > 0 else { return }
    guard count > 0 else {
      self = other
      return
    }
    let total = count + other.count
    let delta = other.mean - mean
    mean += delta * Double(other.count) / Double(total)
    squaredDeviations += other.squaredDeviations + delta * delta * Double(count) * Double(other.count) / Double(total)
    count = total
  }

  /// The sample variance (divided by n − 1), or `nil` below two values.
  public var sampleVariance: Double? {
    count > 1 ? squaredDeviations / Double(count - 1) : nil
  }
}

/// One metric over the devices counted for one variant.
public struct MetricTally: Hashable, Sendable {
  /// The observed outcomes.
  public var outcomes = Moments()
  /// Devices whose conversion outcome was 1 (conversion metrics only).
  public var conversions = 0
  /// The sum over the devices of their expected outcome had they seen only
  /// this variant: the truth the estimate should recover.
  public var trueMeanSum = 0.0

  public init() {}

  public mutating func merge(_ other: MetricTally) {
    outcomes.merge(other.outcomes)
    conversions += other.conversions
    trueMeanSum += other.trueMeanSum
  }

  /// The mean of the devices' expected outcomes, or `nil` with no devices.
  public var trueMean: Double? {
    outcomes.count > 0 ? trueMeanSum / Double(outcomes.count) : nil
  }
}

/// What happened to the devices of one variant.
public struct VariantTally: Hashable, Sendable {
  /// Devices with a "displayed" event for the variant.
  public var exposed = 0
  /// Of those, devices that were displayed another variant of the experiment too.
  public var contaminated = 0
  /// Per metric, the devices whose first displayed variant this is.
  public var firstExposure: [MetricTally]
  /// Per metric, the devices displayed this variant and no other.
  public var uncontaminated: [MetricTally]

  init(metrics: Int) {
    firstExposure = Array(repeating: MetricTally(), count: metrics)
    uncontaminated = Array(repeating: MetricTally(), count: metrics)
  }

  mutating func merge(_ other: VariantTally) {
    exposed += other.exposed
    contaminated += other.contaminated
    for index in firstExposure.indices {
      firstExposure[index].merge(other.firstExposure[index])
      uncontaminated[index].merge(other.uncontaminated[index])
    }
  }
}

/// How an upgrade from one version to another left devices in one experiment.
public struct TransitionCounts: Hashable, Sendable {
  /// Active before and after, on the same variant.
  public var kept = 0
  /// Active before and after, on another variant.
  public var reassigned = 0
  /// Active before, not after.
  public var deactivated = 0
  /// Not active before, active after.
  public var activated = 0

  public init() {}

  mutating func merge(_ other: TransitionCounts) {
    kept += other.kept
    reassigned += other.reassigned
    deactivated += other.deactivated
    activated += other.activated
  }

  /// Devices that were active before or after the upgrade.
  public var total: Int { kept + reassigned + deactivated + activated }
}

/// Everything a run records about one experiment.
public struct ExperimentTally: Hashable, Sendable {
  /// By global variant number.
  public var variants: [VariantTally]
  /// By `from * versions + to`, for upgrades a device made between launches.
  public var transitions: [TransitionCounts]
  /// Devices displayed each variant on each day, by `day * variants + variant`.
  public var dailyExposures: [Int]
  /// Per metric, the devices counted under the scenario's attribution, by the
  /// day they were first displayed the experiment: `(day * variants + variant) * metrics + metric`.
  public var dailyCohorts: [MetricTally]

  init(variants: Int, versions: Int, days: Int, metrics: Int) {
    self.variants = Array(repeating: VariantTally(metrics: metrics), count: variants)
    transitions = Array(repeating: TransitionCounts(), count: versions * versions)
    dailyExposures = Array(repeating: 0, count: days * variants)
    dailyCohorts = Array(repeating: MetricTally(), count: days * variants * metrics)
  }

  mutating func merge(_ other: ExperimentTally) {
    for index in variants.indices { variants[index].merge(other.variants[index]) }
    for index in transitions.indices { transitions[index].merge(other.transitions[index]) }
    for index in dailyExposures.indices { dailyExposures[index] += other.dailyExposures[index] }
    for index in dailyCohorts.indices { dailyCohorts[index].merge(other.dailyCohorts[index]) }
  }
}

/// Everything one replication of a run records, summed over devices.
public struct RunTally: Hashable, Sendable {
  public var devices = 0
  public var launches = 0
  /// Devices on which some version called stabilize.
  public var stabilizedDevices = 0
  public var experiments: [ExperimentTally]
  /// Devices on which the manager refused two active experiments sharing a
  /// key, by `first * experiments + second` of global experiment numbers.
  public var conflictDevices: [Int]

  init(plan: SimulationPlan) {
    let metrics = plan.scenario.metrics.count
    experiments = plan.variantNames.map {
      ExperimentTally(variants: $0.count, versions: plan.versions.count, days: plan.scenario.days, metrics: metrics)
    }
    conflictDevices = Array(repeating: 0, count: plan.experimentNames.count * plan.experimentNames.count)
  }

  mutating func merge(_ other: RunTally) {
    devices += other.devices
    launches += other.launches
    stabilizedDevices += other.stabilizedDevices
    for index in experiments.indices { experiments[index].merge(other.experiments[index]) }
    for index in conflictDevices.indices { conflictDevices[index] += other.conflictDevices[index] }
  }
}
