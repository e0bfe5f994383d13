/// What a run found, in the shape of results.json
/// (../shared/contracts/results.md): the report and other tools read this, not
/// the simulation's tallies.
public struct ResultsDocument: Hashable, Sendable {
  public var scenario: String
  /// The seed the run used; `nil` for an events table.
  public var seed: UInt64?
  public var devices: Int
  public var days: Int
  public var replications: Int
  /// Launches over all devices of the first replication.
  public var launches: Int
  /// Devices on which some version called stabilize.
  public var stabilizedDevices: Int
  public var experiments: [ExperimentResult]
  public var conflicts: [ConflictResult]
  /// With several replications: how often the analysis was right.
  public var calibration: Calibration?
  /// How assignments reached devices: stabilization and, with a remote
  /// service, fetches, overrides, fallbacks, enrollment and churn. `nil` for
  /// an events table.
  public var delivery: DeliveryResult?
  /// The bench that wrote the file, set by the command that writes it; `nil`
  /// (written as null) where no command is involved.
  public var benchVersion: String?

  public init(
    scenario: String,
    seed: UInt64?,
    devices: Int,
    days: Int,
    replications: Int,
    launches: Int,
    stabilizedDevices: Int,
    experiments: [ExperimentResult],
    conflicts: [ConflictResult],
    calibration: Calibration?,
    delivery: DeliveryResult? = nil
  ) {
    self.scenario = scenario
    self.seed = seed
    self.devices = devices
    self.days = days
    self.replications = replications
    self.launches = launches
    self.stabilizedDevices = stabilizedDevices
    self.experiments = experiments
    self.conflicts = conflicts
    self.calibration = calibration
    self.delivery = delivery
  }
}

/// One experiment across the run.
public struct ExperimentResult: Hashable, Sendable {
  public var name: String
  public var source: String
  /// The baseline of the last version that defines the experiment with more
  /// than one variant (of the last one at all when none does).
  public var baseline: String
  public var variants: [VariantResult]
  /// Devices shown more than one variant of the experiment.
  public var mixedDevices: Int
  public var transitions: [TransitionResult]
  /// For an experiment of a hash-bucketed service: what each change on the
  /// dashboard did to the devices it reached.
  public var changes: [ServiceChangeResult] = []
  /// For an experiment with an enrollment rule: who enrolled, and the
  /// analysis of every enrolled device, shown or not.
  public var enrollment: EnrollmentRuleResult?
  /// Per variant, the devices shown it for the first time on each day:
  /// summed over the days, the variant's `exposed`.
  public var dailyNewExposures: [[Int]]
  /// By day, variant and metric: the devices counted by the end of that day
  /// (first exposed by then), for daily looks and the report's charts.
  public var dailyMetrics: [[[MetricSummary]]]
  /// By variant and metric: each counted device's outcome, when the raw
  /// values are at hand (an events table); empty for a simulation, which keeps
  /// sums only.
  public var rawOutcomes: [[[Double]]] = []
  /// The sample ratio mismatch check, once analysed.
  public var srm: SRMResult?
  /// One analysis per metric, once analysed.
  public var analysis: [MetricAnalysis]
  /// The one decision over the experiment's metrics, once analysed; `nil`
  /// for an experiment without metrics.
  public var decision: ExperimentDecision?

  public init(
    name: String,
    source: String,
    baseline: String,
    variants: [VariantResult],
    mixedDevices: Int,
    transitions: [TransitionResult],
    dailyNewExposures: [[Int]],
    dailyMetrics: [[[MetricSummary]]],
    srm: SRMResult?,
    analysis: [MetricAnalysis]
  ) {
    self.name = name
    self.source = source
    self.baseline = baseline
    self.variants = variants
    self.mixedDevices = mixedDevices
    self.transitions = transitions
    self.dailyNewExposures = dailyNewExposures
    self.dailyMetrics = dailyMetrics
    self.srm = srm
    self.analysis = analysis
  }
}

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

/// A metric over the devices a variant counts under the scenario's attribution.
public struct MetricSummary: Hashable, Sendable {
  public var name: String
  public var isConversion: Bool
  public var n: Int
  /// Devices whose outcome was 1, for conversion metrics.
  public var conversions: Int?
  public var mean: Double?
  /// The sample variance (n − 1 in the denominator).
  public var variance: Double?
  /// The mean the devices would have had, had they been shown only this variant.
  public var trueMean: Double?
  /// The lift the scenario gives the variant over the baseline, averaged over
  /// segments by share and baseline rate; `nil` for real data.
  public var trueLift: Double?
  /// The pre-experiment covariate of the same devices, for a metric that has
  /// one: what the analysis adjusts the metric by (CUPED).
  public var covariate: CovariateSummary?
  /// An amount's skewness (g₁, the third central moment over the second's
  /// 3/2 power): how far its mean is from the normal the intervals assume.
  /// `nil` for a conversion, below three devices or with no spread.
  public var skewness: Double?

  public init(
    name: String,
    isConversion: Bool,
    n: Int,
    conversions: Int?,
    mean: Double?,
    variance: Double?,
    trueMean: Double?,
    trueLift: Double?
  ) {
    self.name = name
    self.isConversion = isConversion
    self.n = n
    self.conversions = conversions
    self.mean = mean
    self.variance = variance
    self.trueMean = trueMean
    self.trueLift = trueLift
  }
}

/// A ratio metric over the devices a variant counts: its numerator's and
/// denominator's means and variances per device and their covariance, from
/// which the delta method takes the ratio's variance.
public struct RatioSummary: Hashable, Sendable {
  public var name: String
  public var n: Int
  public var numeratorMean: Double?
  public var numeratorVariance: Double?
  public var denominatorMean: Double?
  public var denominatorVariance: Double?
  public var covariance: Double?
  /// The ratio the scenario gives the variant over the baseline's, less 1;
  /// `nil` for real data.
  public var trueLift: Double?

  public init(
    name: String, n: Int, numeratorMean: Double?, numeratorVariance: Double?, denominatorMean: Double?,
    denominatorVariance: Double?, covariance: Double?, trueLift: Double?
  ) {
    self.name = name
    self.n = n
    self.numeratorMean = numeratorMean
    self.numeratorVariance = numeratorVariance
    self.denominatorMean = denominatorMean
    self.denominatorVariance = denominatorVariance
    self.covariance = covariance
    self.trueLift = trueLift
  }

  /// Σ numerator / Σ denominator, or `nil` without devices or with a
  /// denominator summing to 0.
  public var ratio: Double? {
    guard let numeratorMean, let denominatorMean, denominatorMean != 0 else { return nil }
    return numeratorMean / denominatorMean
  }
}

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

/// A covariate measured before the experiment over the devices of one
/// variant, and how it varies with their outcomes.
public struct CovariateSummary: Hashable, Sendable {
  public var mean: Double?
  /// The sample variance (n − 1 in the denominator).
  public var variance: Double?
  /// The sample covariance with the outcome (n − 1 in the denominator).
  public var covariance: Double?

  public init(mean: Double?, variance: Double?, covariance: Double?) {
    self.mean = mean
    self.variance = variance
    self.covariance = covariance
  }
}

/// Devices upgrading from one version to another, and what it did to one experiment.
public struct TransitionResult: Hashable, Sendable {
  public var fromVersion: String
  public var toVersion: String
  /// Devices that made this upgrade between two launches.
  public var devices: Int
  public var kept: Int
  public var reassigned: Int
  public var deactivated: Int
  public var activated: Int
  /// Of the activated, devices that had been active before, and of those the
  /// ones now on another variant.
  public var returned: Int
  public var returnedOnAnotherVariant: Int

  public init(
    fromVersion: String,
    toVersion: String,
    devices: Int,
    kept: Int,
    reassigned: Int,
    deactivated: Int,
    activated: Int,
    returned: Int,
    returnedOnAnotherVariant: Int
  ) {
    self.fromVersion = fromVersion
    self.toVersion = toVersion
    self.devices = devices
    self.kept = kept
    self.reassigned = reassigned
    self.deactivated = deactivated
    self.activated = activated
    self.returned = returned
    self.returnedOnAnotherVariant = returnedOnAnotherVariant
  }
}

/// Who an enrollment rule enrolled in an experiment, and what counting them
/// all does to the estimate: enrolled devices that were never shown the
/// change dilute it (the "diluted" estimate), where the experiment's own
/// analysis counts the devices shown it (the "triggered" estimate).
public struct EnrollmentRuleResult: Hashable, Sendable {
  /// "allocation", "check" or "run".
  public var policy: String
  /// Per variant: the enrolled devices as a sample (`exposed` and
  /// `firstExposed` are the enrolled count), with their metrics.
  public var variants: [VariantResult]
  /// Per variant: enrolled devices that were shown the experiment.
  public var shown: [Int]
  /// Per day: devices whose precondition became true.
  public var conditionMet: [Int]
  /// Per day: devices whose precondition stopped holding; empty when it cannot.
  public var conditionLapsed: [Int] = []
  /// devtodev's handshakes by outcome, then day; empty without a handshake.
  public var handshakes: [(outcome: String, days: [Int])]
  /// On devices two users share, per day: switches to a user who had
  /// started the test (restored), and to one who had not; empty without
  /// shared devices.
  public var restoredUsers: [Int] = []
  public var newUsers: [Int] = []
  /// The analysis of the enrolled devices, once analysed.
  public var analysis: [MetricAnalysis] = []
  /// Per segment: devices on which the experiment was active, and those enrolled.
  public var segments: [(name: String, active: Int, enrolled: Int)] = []
  /// The devices on which the experiment was active but that never
  /// enrolled, as a sample (`exposed` is their count).
  public var neverEnrolled: VariantResult?
  /// The analysis a common mistake makes: the never-enrolled devices counted
  /// as the baseline, once analysed; empty when there are none.
  public var neverEnrolledAsBaselineAnalysis: [MetricAnalysis] = []
  /// The enrolled samples with the never-enrolled devices added to the
  /// baseline's: what that mistaken analysis reads.
  public var neverEnrolledAsBaseline: [VariantResult] = []

  public init(
    policy: String, variants: [VariantResult], shown: [Int], conditionMet: [Int], handshakes: [(outcome: String, days: [Int])]
  ) {
    self.policy = policy
    self.variants = variants
    self.shown = shown
    self.conditionMet = conditionMet
    self.handshakes = handshakes
  }

  public static func == (lhs: EnrollmentRuleResult, rhs: EnrollmentRuleResult) -> Bool {
    lhs.policy == rhs.policy && lhs.variants == rhs.variants && lhs.shown == rhs.shown
      && lhs.conditionMet == rhs.conditionMet && lhs.conditionLapsed == rhs.conditionLapsed && lhs.analysis == rhs.analysis
      && lhs.neverEnrolled == rhs.neverEnrolled
      && lhs.neverEnrolledAsBaselineAnalysis == rhs.neverEnrolledAsBaselineAnalysis
      && lhs.segments.map(\.name) == rhs.segments.map(\.name) && lhs.segments.map(\.active) == rhs.segments.map(\.active)
      && lhs.segments.map(\.enrolled) == rhs.segments.map(\.enrolled)
      && lhs.handshakes.map(\.outcome) == rhs.handshakes.map(\.outcome) && lhs.handshakes.map(\.days) == rhs.handshakes.map(\.days)
      && lhs.restoredUsers == rhs.restoredUsers && lhs.newUsers == rhs.newUsers
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(policy)
    hasher.combine(variants)
  }
}

/// One change on a hash-bucketed service's dashboard and the devices whose
/// configuration it reached: in the experiment before and after, on the same
/// or another variation, or only on one side of it.
public struct ServiceChangeResult: Hashable, Sendable {
  public var day: Int
  /// What changed, e.g. "traffic set to 100%".
  public var change: String
  public var devices: Int
  public var kept: Int
  public var moved: Int
  public var left: Int
  public var entered: Int

  public init(day: Int, change: String, devices: Int, kept: Int, moved: Int, left: Int, entered: Int) {
    self.day = day
    self.change = change
    self.devices = devices
    self.kept = kept
    self.moved = moved
    self.left = left
    self.entered = entered
  }
}

/// A key two experiments share, and the clashes the assignments manager met
/// on it: launches at which both were active and held the key, so that it
/// served the one first in its merge order and discarded the other's variant.
public struct ConflictResult: Hashable, Sendable {
  public var key: String
  public var experiments: [String]
  /// Devices with at least one clash on the key.
  public var devices: Int
  /// The first and last day of a clash, `nil` when there was none.
  public var firstDay: Int?
  public var lastDay: Int?
  /// The variants served at the clashes, with their devices.
  public var served: [Served]

  /// A variant the manager served at a clash on the key.
  public struct Served: Hashable, Sendable {
    public var experiment: String
    public var variant: String
    public var devices: Int

    public init(experiment: String, variant: String, devices: Int) {
      self.experiment = experiment
      self.variant = variant
      self.devices = devices
    }
  }

  public init(
    key: String,
    experiments: [String],
    devices: Int,
    firstDay: Int? = nil,
    lastDay: Int? = nil,
    served: [Served] = []
  ) {
    self.key = key
    self.experiments = experiments
    self.devices = devices
    self.firstDay = firstDay
    self.lastDay = lastDay
    self.served = served
  }
}

/// How assignments reached devices, day by day.
public struct DeliveryResult: Hashable, Sendable {
  /// Per day: devices that had called stabilize by the end of the day.
  public var stabilized: [Int]
  /// Per day: launches at which an override changed a value a stabilized device held.
  public var overridden: [Int]
  /// Per day: fetches that failed or missed the time-out, of the remote
  /// configuration or of the hash-bucketed service's datafile or payload.
  public var failedFetches: [Int]
  /// Per day: keys that fell back to the app's default.
  public var defaultFallbacks: [Int]
  public var enrollment: [EnrollmentResult]
  public var churn: [ChurnResult]
  /// KOMA's reads after each successful fetch, per day, by kind
  /// ("experimentalGroup", "keyNotFound", "incorrectValue"); empty unless the
  /// remote values are read as KOMA reads them.
  public var tracking: [DailySeries] = []
  /// Per day: launches whose Optimizely activations came from the datafile
  /// held before that launch's download (`accessBeforeDownload`); empty
  /// unless the scenario has such launches.
  public var staleActivations: [Int] = []
  /// Optimizely's feature flags; empty without any.
  public var flags: [FlagResult] = []

  /// A feature flag's launches by day: on, and read without a datafile that
  /// has the flag (false, as the SDK answers on an error).
  public struct FlagResult: Hashable, Sendable {
    public var name: String
    public var on: [Int]
    public var unknown: [Int]

    public init(name: String, on: [Int], unknown: [Int]) {
      self.name = name
      self.on = on
      self.unknown = unknown
    }
  }

  /// A count per day under a name.
  public struct DailySeries: Hashable, Sendable {
    public var name: String
    public var days: [Int]

    public init(name: String, days: [Int]) {
      self.name = name
      self.days = days
    }
  }

  public init(
    stabilized: [Int], overridden: [Int], failedFetches: [Int], defaultFallbacks: [Int], enrollment: [EnrollmentResult],
    churn: [ChurnResult]
  ) {
    self.stabilized = stabilized
    self.overridden = overridden
    self.failedFetches = failedFetches
    self.defaultFallbacks = defaultFallbacks
    self.enrollment = enrollment
    self.churn = churn
  }
}

/// Who a remote experiment reached: devices that launched while it was on the
/// service and in its audience, and how long their enrollment took.
public struct EnrollmentResult: Hashable, Sendable {
  public var experiment: String
  public var eligible: Int
  public var enrolled: Int
  /// Devices by the days from their first eligible launch to holding the experiment.
  public var daysToEnroll: [Int]

  public init(experiment: String, eligible: Int, enrolled: Int, daysToEnroll: [Int]) {
    self.experiment = experiment
    self.eligible = eligible
    self.enrolled = enrolled
    self.daysToEnroll = daysToEnroll
  }

  /// The mean days to enroll, or `nil` when nobody enrolled.
  public var meanDaysToEnroll: Double? {
    enrolled > 0 ? Double(daysToEnroll.enumerated().reduce(0) { $0 + $1.offset * $1.element }) / Double(enrolled) : nil
  }

  /// The days within which `share` of the enrolled devices had enrolled.
  public func daysToEnroll(share: Double) -> Int? {
    guard enrolled > 0 else { return nil }
    var running = 0
    for (day, count) in daysToEnroll.enumerated() {
      running += count
      if Double(running) >= share * Double(enrolled) { return day }
    }
    return daysToEnroll.count - 1
  }
}

/// What a buggy variant did to the devices that held its bug.
public struct ChurnResult: Hashable, Sendable {
  public var experiment: String
  public var variant: String
  public var exposed: Int
  public var lost: Int
  public var stuck: Int
  public var rescued: Int

  public init(experiment: String, variant: String, exposed: Int, lost: Int, stuck: Int, rescued: Int) {
    self.experiment = experiment
    self.variant = variant
    self.exposed = exposed
    self.lost = lost
    self.stuck = stuck
    self.rescued = rescued
  }
}
