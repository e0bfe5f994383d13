/// The count, sum and sum of squares of a stream of values, kept as exact
/// integers on a grid of 2^`stepExponent`, so that adding values in any order
/// or grouping gives the same bits: batch and shard results merge to the same
/// totals however the devices are split.
///
/// Each value becomes a whole number of steps that fits in 63 bits (a value
/// beyond ±2⁶² steps is clamped to it), the sum is a 128-bit integer and the
/// sum of squares a 256-bit one, so no count of values a run can make
/// overflows either. A metric picks the grid from its scale
/// (`stepExponent(forScale:)`), so that a revenue in a minor currency unit
/// and a mean of 10⁻⁷ are both held to 2⁻³² of their scale.
public struct Moments: Hashable, Sendable, BitwiseCopyable {
  /// The grid's step is 2^stepExponent.
  public let stepExponent: Int
  /// 2^-stepExponent, kept so that adding a value multiplies by a constant.
  private let stepsPerUnit: Double
  public internal(set) var count: Int = 0
  var sum: Int128 = 0
  /// Σ steps², as `high` × 2¹²⁸ + `low`.
  var squaresLow: UInt128 = 0
  var squaresHigh: UInt128 = 0

  /// The largest number of steps a value takes: ±2⁶².
  static let largestSteps = 0x1p62

  /// - Parameter stepExponent: the grid's step is 2^stepExponent; see
  ///   `stepExponent(forScale:)`.
  public init(stepExponent: Int = -32) {
    self.stepExponent = stepExponent
    stepsPerUnit = Double(sign: .plus, exponent: -stepExponent, significand: 1)
  }

  /// The grid for values whose mean is at most `scale`: steps of 2⁻³² of the
  /// scale's power of two, which holds values up to 2³⁰ times the scale.
  public static func stepExponent(forScale scale: Double) -> Int {
    (scale.isFinite && scale > 0 ? Int(scale.exponent) + 1 : 0) - 32
  }

  /// The grid for given values whose magnitude is at most `largest`: the
  /// finest on which the largest still fits.
  public static func stepExponent(forLargest largest: Double) -> Int {
    (largest.isFinite && largest > 0 ? Int(largest.exponent) + 1 : 0) - 62
  }

  /// The grid's step.
  public var step: Double { Double(sign: .plus, exponent: stepExponent, significand: 1) }

  /// `value` rounded to the nearest point of the grid (clamped to ±2⁶² steps).
  public func quantize(_ value: Double) -> Double {
    Double(steps(value)) * step
  }

  @inline(__always)
  func steps(_ value: Double) -> Int64 {
    Self.nearestSteps(value * stepsPerUnit) ?? 0
  }

  /// `scaled` rounded half away from zero, as `rounded()` does, and clamped
  /// to ±2⁶² steps; `nil` for NaN. The rounding is done on the integer part,
  /// without libm's `round`, which the device loop called for every outcome:
  /// below 2⁵² the fraction `scaled − trunc(scaled)` is exact, and above it
  /// every double is already whole.
  @inline(__always)
  static func nearestSteps(_ scaled: Double) -> Int64? {
    guard scaled == scaled else { return nil }
    let clamped = min(max(scaled, -largestSteps), largestSteps)
    let whole = Int64(clamped)
    let fraction = clamped - Double(whole)
    return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
  }

  @inline(__always)
  public mutating func add(_ value: Double) {
    add(steps: steps(value))
  }

  /// Adds a value already on the grid, as a whole number of steps.
  @inline(__always)
  mutating func add(steps: Int64) {
    let square = UInt128(steps.magnitude) * UInt128(steps.magnitude)
    count += 1
    sum += Int128(steps)
    let (low, carry) = squaresLow.addingReportingOverflow(square)
    squaresLow = low
    if carry { squaresHigh += 1 }
  }

  /// Adds the same value `times` times, exactly as so many `add(steps:)`.
  mutating func add(steps: Int64, times: Int) {
    guard times > 0 else { return }
    let square = UInt128(steps.magnitude) * UInt128(steps.magnitude)
    count += times
    sum += Int128(steps) * Int128(times)
    let product = square.multipliedFullWidth(by: UInt128(times))
    let (low, carry) = squaresLow.addingReportingOverflow(product.low)
    squaresLow = low
    squaresHigh += product.high + (carry ? 1 : 0)
  }

  public mutating func merge(_ other: Moments) {
    precondition(other.stepExponent == stepExponent, "moments on different grids cannot merge exactly")
    count += other.count
    sum += other.sum
    let (low, carry) = squaresLow.addingReportingOverflow(other.squaresLow)
    squaresLow = low
    squaresHigh += other.squaresHigh + (carry ? 1 : 0)
  }

  /// The mean, or `nil` with no values.
  public var mean: Double? {
    count > 0 ? Double(sum) / Double(count) * step : nil
  }

  /// The sample variance (divided by n − 1), or `nil` below two values:
  /// (n Σx² − (Σx)²) / (n (n − 1)), with the difference taken exactly in 256
  /// bits, so a constant stream has variance 0 exactly.
  public var sampleVariance: Double? {
    guard count > 1 else { return nil }
    let n = UInt128(count)
    // n Σx²: n × low spills into the high word; n × high fits, since Σx² < 2¹⁸⁹.
    let lowProduct = n.multipliedFullWidth(by: squaresLow)
    let scaledHigh = lowProduct.high + n * squaresHigh
    let scaledLow = lowProduct.low
    let square = sum.magnitude.multipliedFullWidth(by: sum.magnitude)
    let (differenceLow, borrow) = scaledLow.subtractingReportingOverflow(square.low)
    let differenceHigh = scaledHigh - square.high - (borrow ? 1 : 0)
    let spread = Self.double(high: differenceHigh, low: differenceLow)
    return spread / (Double(count) * Double(count - 1)) * step * step
  }

  /// `high` × 2¹²⁸ + `low`, rounded once, so that the same amount on two grids
  /// gives the same variance.
  static func double(high: UInt128, low: UInt128) -> Double {
    guard high != 0 else { return Double(low) }
    let shift = 128 - high.leadingZeroBitCount
    let lost = low & ((1 << UInt128(shift)) - 1)
    let top = high << UInt128(128 - shift) | low >> UInt128(shift) | (lost != 0 ? 1 : 0)
    return Double(top) * Double(sign: .plus, exponent: shift, significand: 1)
  }
}

/// A sum of values kept exactly on a grid of 2^`stepExponent`, for totals
/// that must not depend on the order of addition (expected outcomes and
/// probabilities). Values beyond ±2⁶² steps are clamped to it.
public struct ExactSum: Hashable, Sendable, BitwiseCopyable {
  public let stepExponent: Int
  /// 2^-stepExponent, kept so that adding a value multiplies by a constant.
  private let stepsPerUnit: Double
  var steps: Int128 = 0

  /// - Parameter stepExponent: the grid: 2⁻³² by default, for probabilities;
  ///   `Moments.stepExponent(forScale:)` for a metric's expected outcomes.
  public init(stepExponent: Int = -32) {
    self.stepExponent = stepExponent
    stepsPerUnit = Double(sign: .plus, exponent: -stepExponent, significand: 1)
  }

  @inline(__always)
  public mutating func add(_ value: Double) {
    guard let nearest = steps(value) else { return }
    add(steps: nearest)
  }

  /// `value` as a whole number of this sum's steps, `nil` for NaN (which
  /// `add` leaves out).
  @inline(__always)
  func steps(_ value: Double) -> Int64? {
    Moments.nearestSteps(value * stepsPerUnit)
  }

  @inline(__always)
  mutating func add(steps nearest: Int64) {
    steps += Int128(nearest)
  }

  /// Adds `value` `times` times: the same sum as that many calls of `add`,
  /// since each adds the same steps.
  public mutating func add(_ value: Double, times: Int) {
    guard let nearest = steps(value) else { return }
    steps += Int128(nearest) * Int128(times)
  }

  public mutating func merge(_ other: ExactSum) {
    precondition(other.stepExponent == stepExponent, "sums on different grids cannot merge exactly")
    steps += other.steps
  }

  public var value: Double { Double(steps) * Double(sign: .plus, exponent: stepExponent, significand: 1) }
}

/// Σ steps³ of values on a grid, exactly: the positive and the negative
/// cubes' magnitudes each in 256 bits (a cube of up to 2⁶² steps takes 186,
/// and 2³⁰ of them 216), so that shards and batches merge to the same bits in
/// any order. With `Moments` it gives a sample's skewness.
public struct CubeSum: Hashable, Sendable, BitwiseCopyable {
  /// Magnitudes as high × 2¹²⁸ + low.
  var positiveLow: UInt128 = 0, positiveHigh: UInt128 = 0
  var negativeLow: UInt128 = 0, negativeHigh: UInt128 = 0

  public init() {}

  @inline(__always)
  mutating func add(steps: Int64) {
    let magnitude = UInt128(steps.magnitude)
    let cube = (magnitude * magnitude).multipliedFullWidth(by: magnitude)
    if steps >= 0 {
      Self.accumulate(high: cube.high, low: cube.low, intoHigh: &positiveHigh, low: &positiveLow)
    } else {
      Self.accumulate(high: cube.high, low: cube.low, intoHigh: &negativeHigh, low: &negativeLow)
    }
  }

  public mutating func merge(_ other: CubeSum) {
    Self.accumulate(high: other.positiveHigh, low: other.positiveLow, intoHigh: &positiveHigh, low: &positiveLow)
    Self.accumulate(high: other.negativeHigh, low: other.negativeLow, intoHigh: &negativeHigh, low: &negativeLow)
  }

  @inline(__always)
  private static func accumulate(high: UInt128, low: UInt128, intoHigh sumHigh: inout UInt128, low sumLow: inout UInt128) {
    let (newLow, carry) = sumLow.addingReportingOverflow(low)
    sumLow = newLow
    sumHigh += high + (carry ? 1 : 0)
  }

  /// Σ steps³, each sign's magnitude rounded once.
  var value: Double {
    Moments.double(high: positiveHigh, low: positiveLow) - Moments.double(high: negativeHigh, low: negativeLow)
  }

  /// The skewness g₁ = m₃/m₂^(3/2) of the values `moments` counts, with the
  /// central moments divided by n (scipy's `skew`): m₃ = S₃/n − 3x̄·S₂/n + 2x̄³
  /// from the exact sums, m₂ from the exact variance. `nil` below three
  /// values or with no spread.
  func skewness(of moments: Moments) -> Double? {
    guard moments.count > 2, let variance = moments.sampleVariance, variance > 0 else { return nil }
    let n = Double(moments.count), step = moments.step
    let mean = Double(moments.sum) / n
    let squares = Moments.double(high: moments.squaresHigh, low: moments.squaresLow) / n
    let third = value / n - 3 * mean * squares + 2 * mean * mean * mean
    let secondMoment = variance / (step * step) * (n - 1) / n
    return third / (secondMoment * secondMoment.squareRoot())
  }
}

/// One metric over the devices counted for one variant.
public struct MetricTally: Hashable, Sendable, BitwiseCopyable {
  /// The observed outcomes.
  public var outcomes: Moments
  /// Σ outcome³ on the outcomes' grid, for amounts (conversions' skewness
  /// follows from their rate).
  public var cubes = CubeSum()
  /// Devices whose conversion outcome was 1 (conversion metrics only).
  public var conversions = 0
  /// The sum over the devices of their expected outcome had they seen only
  /// this variant: the truth the estimate should recover.
  public var trueMeanSum: ExactSum

  /// - Parameter stepExponent: the metric's grid (`Moments.stepExponent`).
  ///   Expected outcomes never exceed the scale, so the truth is summed on a
  ///   grid 2²⁰ times finer: a double's full precision at the scale.
  public init(stepExponent: Int) {
    outcomes = Moments(stepExponent: stepExponent)
    trueMeanSum = ExactSum(stepExponent: stepExponent - 20)
  }

  public mutating func merge(_ other: MetricTally) {
    outcomes.merge(other.outcomes)
    cubes.merge(other.cubes)
    conversions += other.conversions
    trueMeanSum.merge(other.trueMeanSum)
  }

  /// Counts one device's outcome, and its expected outcome when the truth is known.
  public mutating func add(_ outcome: Double, expected: Double? = nil, isConversion: Bool) {
    add(
      outcomeSteps: outcomes.steps(outcome), expectedSteps: expected.flatMap { trueMeanSum.steps($0) },
      converted: isConversion && outcome == 1, isAmount: !isConversion)
  }

  /// `add(_:expected:isConversion:)` with the outcome and its expectation
  /// already on this tally's grids (`Moments.steps`, `ExactSum.steps`), for a
  /// device the loop counts in several tallies of one metric.
  @inline(__always)
  mutating func add(outcomeSteps: Int64, expectedSteps: Int64?, converted: Bool, isAmount: Bool) {
    outcomes.add(steps: outcomeSteps)
    if isAmount { cubes.add(steps: outcomeSteps) }
    if let expectedSteps { trueMeanSum.add(steps: expectedSteps) }
    if converted { conversions += 1 }
  }

  /// The skewness of an amount's outcomes (`CubeSum.skewness(of:)`), `nil`
  /// below three devices or with no spread. Only amounts add their cubes: a
  /// conversion tally's is not its skewness.
  public var skewness: Double? { cubes.skewness(of: outcomes) }

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

  mutating func merge(_ other: VariantTally) {
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
  /// Devices displayed each variant for the first time on each day, by
  /// `day * variants + variant`: summed over the days, a variant's `exposed`.
  public var dailyNewExposures: [Int]
  /// Per metric, the devices on which an enrollment rule's experiment was
  /// active but which never enrolled: what counting them as the baseline adds.
  public var neverEnrolled: [MetricTally]
  /// Per metric, the devices counted under the scenario's attribution, by the
  /// day they were first displayed the experiment: `(day * variants + variant) * metrics + metric`.
  public var dailyCohorts: [MetricTally]

  init(variants: Int, versions: Int, days: Int, stepExponents: [Int], ratios: Int, histograms: [AmountHistogram]) {
    self.variants = Array(
      repeating: VariantTally(stepExponents: stepExponents, ratios: ratios, histograms: histograms),
      count: variants)
    transitions = Array(repeating: TransitionCounts(), count: versions * versions)
    dailyNewExposures = Array(repeating: 0, count: days * variants)
    dailyCohorts = (0..<(days * variants)).flatMap { _ in stepExponents.map(MetricTally.init(stepExponent:)) }
    neverEnrolled = stepExponents.map(MetricTally.init(stepExponent:))
  }

  mutating func merge(_ other: ExperimentTally) {
    mixedDevices += other.mixedDevices
    for index in variants.indices { variants[index].merge(other.variants[index]) }
    for index in transitions.indices { transitions[index].merge(other.transitions[index]) }
    for index in dailyNewExposures.indices { dailyNewExposures[index] += other.dailyNewExposures[index] }
    for index in dailyCohorts.indices { dailyCohorts[index].merge(other.dailyCohorts[index]) }
    for index in neverEnrolled.indices { neverEnrolled[index].merge(other.neverEnrolled[index]) }
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
  /// The hash-bucketed service's changes and downloads.
  public var service: ServiceTally
  /// Preconditions met and handshakes, by enrollment rule.
  public var enrollment: EnrollmentTally
  /// Device upgrades between launches, by `from * versions + to`.
  public var upgrades: [Int]
  public var experiments: [ExperimentTally]
  /// By row of `SimulationPlan.sharedKeys`: the clashes on that key.
  public var conflicts: [ConflictTally]

  /// An empty tally shaped for `plan`: every count zero.
  public init(plan: SimulationPlan) {
    self.init(plan: plan, days: plan.scenario.days)
  }

  /// An empty tally shaped for `plan` as if it lasted `days`: its size grows
  /// linearly with the days, which is how `RunEstimate` measures a large
  /// plan's tally without allocating it.
  init(plan: SimulationPlan, days: Int) {
    experiments = plan.variantNames.map {
      ExperimentTally(
        variants: $0.count, versions: plan.versions.count, days: days, stepExponents: plan.metricStepExponents,
        ratios: plan.scenario.ratios.count,
        histograms: plan.scenario.metrics.indices.filter { plan.scenario.metrics[$0].countsAmounts }.map {
          AmountHistogram(stepExponent: plan.metricStepExponents[$0], keepsMoments: plan.scenario.metrics[$0].winsorize != nil)
        })
    }
    conflicts = plan.sharedKeys.map { shared in
      ConflictTally(variants: shared.experiments.map { plan.variantNames[$0].count }.reduce(0, +))
    }
    upgrades = Array(repeating: 0, count: plan.versions.count * plan.versions.count)
    stabilizedByDay = Array(repeating: 0, count: days)
    enrollment = EnrollmentTally(
      rules: plan.scenario.enrollment.count, days: days, segments: plan.scenario.population.segments.count)
    service = ServiceTally(
      experiments: plan.serviceExperiments.count, revisions: plan.scenario.service?.revisions.count ?? 0,
      days: days)
    remote = RemoteTally(
      remoteExperiments: plan.remoteExperiments.count, churnRules: plan.scenario.churn.count,
      days: days, revisions: plan.scenario.remote?.revisions.count ?? 0)
  }

  /// Adds another part's counts, exactly: tallies of the same plan merge to
  /// the same totals in any order and grouping.
  public mutating func merge(_ other: RunTally) {
    devices += other.devices
    launches += other.launches
    stabilizedDevices += other.stabilizedDevices
    for index in experiments.indices { experiments[index].merge(other.experiments[index]) }
    for index in conflicts.indices { conflicts[index].merge(other.conflicts[index]) }
    for index in upgrades.indices { upgrades[index] += other.upgrades[index] }
    for index in stabilizedByDay.indices { stabilizedByDay[index] += other.stabilizedByDay[index] }
    remote.merge(other.remote)
    service.merge(other.service)
    enrollment.merge(other.enrollment)
  }
}
