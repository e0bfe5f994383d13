/// The count, sum and sum of squares of a stream of values, kept as exact
/// integers on a grid of 2⁻²⁰, so that adding values in any order or grouping
/// gives the same bits: shard results merge to the same totals however the
/// devices are split.
///
/// Outcomes are drawn on that grid (`Moments.quantize`), so nothing is lost;
/// a value beyond ±2⁴³ is clamped to it.
public struct Moments: Hashable, Sendable {
  /// The grid's step: values are whole multiples of it.
  public static let resolution = 0x1p-20

  public private(set) var count: Int = 0
  private var sum: Int128 = 0
  private var sumOfSquares: Int128 = 0

  public init() {}

  /// `value` rounded to the nearest point of the grid.
  public static func quantize(_ value: Double) -> Double {
    Double(steps(value)) * resolution
  }

  private static func steps(_ value: Double) -> Int64 {
    let scaled = (value / resolution).rounded()
    return Int64(min(max(scaled, -0x1p63 + 1024), 0x1p63 - 1024))
  }

  public mutating func add(_ value: Double) {
    let steps = Int128(truncatingIfNeeded: Self.steps(value))
    count += 1
    sum += steps
    sumOfSquares += steps * steps
  }

  public mutating func merge(_ other: Moments) {
    count += other.count
    sum += other.sum
    sumOfSquares += other.sumOfSquares
  }

  /// The mean, or `nil` with no values.
  public var mean: Double? {
    count > 0 ? Double(sum) / Double(count) * Self.resolution : nil
  }

  /// The sample variance (divided by n − 1), or `nil` below two values:
  /// (n Σx² − (Σx)²) / (n (n − 1)), with the difference taken exactly when it
  /// fits in 128 bits.
  public var sampleVariance: Double? {
    guard count > 1 else { return nil }
    let n = Int128(count)
    let (scaled, overflowScaled) = n.multipliedReportingOverflow(by: sumOfSquares)
    let (square, overflowSquare) = sum.multipliedReportingOverflow(by: sum)
    let spread: Double
    if !overflowScaled && !overflowSquare {
      spread = Double(scaled - square) / Double(count)
    } else {
      spread = Double(sumOfSquares) - Double(sum) * Double(sum) / Double(count)
    }
    return max(spread, 0) / Double(count - 1) * Self.resolution * Self.resolution
  }
}

/// A sum of values of magnitude below 2³¹ kept exactly on a grid of 2⁻³², for
/// totals that must not depend on the order of addition (expected outcomes
/// and probabilities).
public struct ExactSum: Hashable, Sendable {
  private var steps: Int128 = 0

  public init() {}

  public mutating func add(_ value: Double) {
    steps += Int128(truncatingIfNeeded: Int64((value * 0x1p32).rounded()))
  }

  public mutating func merge(_ other: ExactSum) {
    steps += other.steps
  }

  public var value: Double { Double(steps) * 0x1p-32 }
}

/// One metric over the devices counted for one variant.
public struct MetricTally: Hashable, Sendable {
  /// The observed outcomes.
  public var outcomes = Moments()
  /// Devices whose conversion outcome was 1 (conversion metrics only).
  public var conversions = 0
  /// The sum over the devices of their expected outcome had they seen only
  /// this variant: the truth the estimate should recover.
  public var trueMeanSum = ExactSum()

  public init() {}

  public mutating func merge(_ other: MetricTally) {
    outcomes.merge(other.outcomes)
    conversions += other.conversions
    trueMeanSum.merge(other.trueMeanSum)
  }

  /// Counts one device's outcome, and its expected outcome when the truth is known.
  public mutating func add(_ outcome: Double, expected: Double? = nil, isConversion: Bool) {
    outcomes.add(outcome)
    if let expected { trueMeanSum.add(expected) }
    if isConversion, outcome == 1 { conversions += 1 }
  }

  /// The mean of the devices' expected outcomes, or `nil` with no devices.
  public var trueMean: Double? {
    outcomes.count > 0 ? trueMeanSum.value / Double(outcomes.count) : nil
  }
}

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

  public init(metrics: Int) {
    firstExposure = Array(repeating: MetricTally(), count: metrics)
    uncontaminated = Array(repeating: MetricTally(), count: metrics)
  }

  mutating func merge(_ other: VariantTally) {
    exposed += other.exposed
    contaminated += other.contaminated
    firstExposed += other.firstExposed
    expectedFirstExposed.merge(other.expectedFirstExposed)
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
  /// Of the activated, devices that had been active in the experiment before
  /// (a version removed it, or it was inactive, and it came back).
  public var returned = 0
  /// Of those, devices whose variant now differs from the one they last had.
  public var returnedOnAnotherVariant = 0

  public init() {}

  mutating func merge(_ other: TransitionCounts) {
    kept += other.kept
    reassigned += other.reassigned
    deactivated += other.deactivated
    activated += other.activated
    returned += other.returned
    returnedOnAnotherVariant += other.returnedOnAnotherVariant
  }

  /// Devices that were active before or after the upgrade.
  public var total: Int { kept + reassigned + deactivated + activated }
}

/// Everything a run records about one experiment.
public struct ExperimentTally: Hashable, Sendable {
  /// By global variant number.
  public var variants: [VariantTally]
  /// Devices displayed more than one variant of the experiment.
  public var mixedDevices = 0
  /// By `from * versions + to`, for upgrades a device made between launches.
  public var transitions: [TransitionCounts]
  /// Devices first displayed each variant on each day, by `day * variants + variant`:
  /// summed over the days, a variant's `exposed`.
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
    mixedDevices += other.mixedDevices
    for index in variants.indices { variants[index].merge(other.variants[index]) }
    for index in transitions.indices { transitions[index].merge(other.transitions[index]) }
    for index in dailyExposures.indices { dailyExposures[index] += other.dailyExposures[index] }
    for index in dailyCohorts.indices { dailyCohorts[index].merge(other.dailyCohorts[index]) }
  }
}

/// The clashes on one key two experiments share: the launches at which both
/// were active and held the key, so that the manager served the one first in
/// its order and discarded the other.
public struct ConflictTally: Hashable, Sendable {
  /// Devices with at least one clash.
  public var devices = 0
  /// The first and last day a clash happened, `nil` before any.
  public var firstDay: Int?
  public var lastDay: Int?
  /// Devices on which each variant was served at a clash, by the row's first
  /// experiment's variants, then the second's.
  public var served: [Int]

  init(variants: Int) {
    served = Array(repeating: 0, count: variants)
  }

  mutating func merge(_ other: ConflictTally) {
    devices += other.devices
    firstDay = [firstDay, other.firstDay].compactMap { $0 }.min()
    lastDay = [lastDay, other.lastDay].compactMap { $0 }.max()
    for index in served.indices { served[index] += other.served[index] }
  }
}

/// Everything one replication of a run records, summed over devices.
public struct RunTally: Hashable, Sendable {
  public var devices = 0
  public var launches = 0
  /// Devices on which some version called stabilize.
  public var stabilizedDevices = 0
  /// Devices that called stabilize, by the day they first did.
  public var stabilizedByDay: [Int]
  /// The remote service's delivery.
  public var remote: RemoteTally
  /// Device upgrades between launches, by `from * versions + to`.
  public var upgrades: [Int]
  public var experiments: [ExperimentTally]
  /// By row of `SimulationPlan.sharedKeys`: the clashes on that key.
  public var conflicts: [ConflictTally]

  init(plan: SimulationPlan) {
    let metrics = plan.scenario.metrics.count
    experiments = plan.variantNames.map {
      ExperimentTally(variants: $0.count, versions: plan.versions.count, days: plan.scenario.days, metrics: metrics)
    }
    conflicts = plan.sharedKeys.map { shared in
      ConflictTally(variants: shared.experiments.map { plan.variantNames[$0].count }.reduce(0, +))
    }
    upgrades = Array(repeating: 0, count: plan.versions.count * plan.versions.count)
    stabilizedByDay = Array(repeating: 0, count: plan.scenario.days)
    remote = RemoteTally(
      remoteExperiments: plan.experimentNames.count - plan.localExperimentCount, churnRules: plan.scenario.churn.count,
      days: plan.scenario.days)
  }

  mutating func merge(_ other: RunTally) {
    devices += other.devices
    launches += other.launches
    stabilizedDevices += other.stabilizedDevices
    for index in experiments.indices { experiments[index].merge(other.experiments[index]) }
    for index in conflicts.indices { conflicts[index].merge(other.conflicts[index]) }
    for index in upgrades.indices { upgrades[index] += other.upgrades[index] }
    for index in stabilizedByDay.indices { stabilizedByDay[index] += other.stabilizedByDay[index] }
    remote.merge(other.remote)
  }
}
