/// The sample ratio mismatch check of one experiment: the first exposures per
/// variant against the split the configuration should produce.
public struct SRMResult: Hashable, Sendable {
  /// The expected share of each variant, in the experiment's variant order.
  public var expected: [Double]
  public var statistic: Double?
  public var degreesOfFreedom: Double?
  public var pValue: Double?
  /// Whether the p-value is below the threshold: the split is not what the
  /// configuration produces, so the comparison is not trustworthy.
  public var isMismatch: Bool

  public init(expected: [Double], statistic: Double?, degreesOfFreedom: Double?, pValue: Double?, isMismatch: Bool) {
    self.expected = expected
    self.statistic = statistic
    self.degreesOfFreedom = degreesOfFreedom
    self.pValue = pValue
    self.isMismatch = isMismatch
  }
}

/// A test's name, statistic, degrees of freedom and p-value.
public struct TestSummary: Hashable, Sendable {
  public var test: String
  public var statistic: Double?
  public var degreesOfFreedom: Double?
  public var pValue: Double?

  public init(test: String, statistic: Double?, degreesOfFreedom: Double?, pValue: Double?) {
    self.test = test
    self.statistic = statistic
    self.degreesOfFreedom = degreesOfFreedom
    self.pValue = pValue
  }
}

/// One variant against the baseline on one metric.
public struct Comparison: Hashable, Sendable {
  public var variant: String
  public var baseline: String
  public var test: TestSummary
  /// The p-value after the scenario's correction over the experiment's comparisons.
  public var adjustedPValue: Double?
  /// The absolute difference of rates (treatment − baseline) and its Newcombe
  /// interval, for conversion metrics.
  public var difference: Estimate?
  /// The relative lift (treatment mean / baseline mean − 1) and its interval.
  public var lift: Double?
  public var liftInterval: (lower: Double, upper: Double)?
  /// The treatment mean minus the baseline mean: what a winner is decided on,
  /// since it exists when the relative lift does not (a baseline of 0).
  public var meanDifference: Double?
  /// The baseline's mean is 0 and the treatment's is above it: the relative
  /// lift is unbounded rather than unknown.
  public var liftIsUnbounded = false
  /// On a guardrail metric: the one-sided test that the variant loses less
  /// than the margin.
  public var nonInferiority: NonInferiorityResult?
  /// P(variant > baseline): Beta-Binomial for conversions, normal for amounts.
  public var probabilityToBeatBaseline: Double?
  /// The expected loss of choosing the variant over the baseline.
  public var expectedLoss: Double?
  /// The lift the scenario gives the variant, when known.
  public var trueLift: Double?
  /// The Mann–Whitney U test on the raw outcomes of a continuous metric, when they are at hand.
  public var rankTest: TestSummary?
  /// The variant or the baseline has fewer devices than the analysis's
  /// minimum: the comparison carries its point estimates but no p-value,
  /// interval or chance to beat the baseline.
  public var tooFewDevices = false
  /// On a metric with a pre-experiment covariate: the adjustment (CUPED)
  /// that `test`, the lift, its interval and `meanDifference` carry, and the
  /// comparison without it.
  public var covariateAdjustment: CovariateAdjustment?
  /// The standard error of `meanDifference`, from which the design
  /// analysis of a significant result works.
  public var standardError: Double?
  /// What to do with the variant on this metric.
  public var decision: Decision = .inconclusive(devicesNeeded: nil)
  /// On an amount: set where an arm is too small for its skewness, so that
  /// the interval and the decision may not hold their level.
  public var skewWarning: SkewWarning?
  /// For a significant result: its power, type S and type M errors at the
  /// planned effect.
  public var designErrors: DesignErrors?
  /// Each daily look, when the scenario takes them.
  public var looks: [Look]
  /// The lift and its interval on the devices first exposed by the end of
  /// each day; `nil` on days it cannot be computed.
  public var dailyLift: [Estimate?]

  public init(
    variant: String, baseline: String, test: TestSummary, adjustedPValue: Double?, difference: Estimate?, lift: Double?,
    liftInterval: (lower: Double, upper: Double)?, probabilityToBeatBaseline: Double?, expectedLoss: Double?,
    trueLift: Double?, looks: [Look], dailyLift: [Estimate?]
  ) {
    self.variant = variant
    self.baseline = baseline
    self.test = test
    self.adjustedPValue = adjustedPValue
    self.difference = difference
    self.lift = lift
    self.liftInterval = liftInterval
    self.probabilityToBeatBaseline = probabilityToBeatBaseline
    self.expectedLoss = expectedLoss
    self.trueLift = trueLift
    self.looks = looks
    self.dailyLift = dailyLift
  }

  public static func == (lhs: Comparison, rhs: Comparison) -> Bool {
    lhs.variant == rhs.variant && lhs.baseline == rhs.baseline && lhs.test == rhs.test
      && lhs.adjustedPValue == rhs.adjustedPValue && lhs.difference == rhs.difference && lhs.lift == rhs.lift
      && lhs.liftInterval?.lower == rhs.liftInterval?.lower && lhs.liftInterval?.upper == rhs.liftInterval?.upper
      && lhs.probabilityToBeatBaseline == rhs.probabilityToBeatBaseline && lhs.expectedLoss == rhs.expectedLoss
      && lhs.trueLift == rhs.trueLift && lhs.looks == rhs.looks && lhs.dailyLift == rhs.dailyLift
      && lhs.rankTest == rhs.rankTest && lhs.meanDifference == rhs.meanDifference
      && lhs.liftIsUnbounded == rhs.liftIsUnbounded && lhs.nonInferiority == rhs.nonInferiority
      && lhs.covariateAdjustment == rhs.covariateAdjustment && lhs.tooFewDevices == rhs.tooFewDevices
      && lhs.standardError == rhs.standardError && lhs.decision == rhs.decision && lhs.designErrors == rhs.designErrors
      && lhs.skewWarning == rhs.skewWarning
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(variant)
    hasher.combine(test)
    hasher.combine(lift)
  }
}

/// An amount too skewed for its sample: the normal approximation behind the
/// mean's test and interval needs about c·s² devices where the skewness is s
/// (the form of Kohavi, Tang and Xu's rule, *Trustworthy Online Controlled
/// Experiments*, chapter 17; c measured in docs/statistics.md), and this arm
/// has fewer. The interval may then miss its level and the decision rests on
/// it: both are marked, not withheld.
public struct SkewWarning: Hashable, Sendable {
  /// From about this many times an amount's squared skewness devices an
  /// arm, its lift interval holds its level: the form of Kohavi, Tang and
  /// Xu's rule for a mean (355·s² for a one-sided 10% error), with the factor
  /// measured on this bench's intervals (docs/statistics.md, "Skewed amounts").
  public static let devicesPerSquaredSkewness = 25.0

  /// The arm (the variant or the baseline) furthest below its need.
  public var variant: String
  public var skewness: Double
  public var devices: Int
  /// ⌈c·s²⌉.
  public var needed: Int

  public init(variant: String, skewness: Double, devices: Int, needed: Int) {
    self.variant = variant
    self.skewness = skewness
    self.devices = devices
    self.needed = needed
  }
}

/// What a comparison's regression adjustment (CUPED) did: the slope it
/// removed, how much of the estimate's variance went with it, and the
/// comparison as it stood before.
public struct CovariateAdjustment: Hashable, Sendable {
  /// The outcome removed per unit of covariate, fitted once over every
  /// variant of the experiment.
  public var theta: Double
  /// The share of the variance of the difference of means the adjustment
  /// removed: 1 − (v₁*/n₁ + v₂*/n₂)/(v₁/n₁ + v₂/n₂); `nil` where neither
  /// outcome varies.
  public var varianceReduction: Double?
  /// The unadjusted test, lift and lift interval.
  public var unadjusted: TestSummary
  public var unadjustedLift: Double?
  public var unadjustedLiftInterval: Estimate?

  public init(
    theta: Double, varianceReduction: Double?, unadjusted: TestSummary, unadjustedLift: Double?,
    unadjustedLiftInterval: Estimate?
  ) {
    self.theta = theta
    self.varianceReduction = varianceReduction
    self.unadjusted = unadjusted
    self.unadjustedLift = unadjustedLift
    self.unadjustedLiftInterval = unadjustedLiftInterval
  }
}

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

/// A value with its confidence interval.
public struct Estimate: Hashable, Sendable {
  public var value: Double
  public var lower: Double
  public var upper: Double

  public init(value: Double, lower: Double, upper: Double) {
    self.value = value
    self.lower = lower
    self.upper = upper
  }
}

/// A test repeated at the end of one day on the devices counted so far.
public struct Look: Hashable, Sendable {
  public var day: Int
  /// The ordinary p-value, valid for one look only.
  public var pValue: Double?
  /// The mSPRT p-value, valid however often one looks.
  public var alwaysValidPValue: Double?
  /// The p-value this look must reach under O'Brien–Fleming and Pocock alpha
  /// spending, with the information fraction of the devices counted by then.
  public var obrienFlemingAlpha: Double?
  public var pocockAlpha: Double?

  public init(
    day: Int, pValue: Double?, alwaysValidPValue: Double?, obrienFlemingAlpha: Double? = nil, pocockAlpha: Double? = nil
  ) {
    self.day = day
    self.pValue = pValue
    self.alwaysValidPValue = alwaysValidPValue
    self.obrienFlemingAlpha = obrienFlemingAlpha
    self.pocockAlpha = pocockAlpha
  }

  /// Whether the ordinary p-value reaches `threshold` (an alpha-spending look's).
  public func crosses(_ threshold: Double?) -> Bool {
    guard let pValue, let threshold else { return false }
    return pValue <= threshold
  }
}

/// The effect a power calculation must detect.
public enum PowerTarget: Hashable, Sendable {
  /// A relative lift over the baseline's rate or mean (0.1 for +10%).
  case lift(Double)
  /// An absolute difference of rates or means: what a baseline of 0 needs,
  /// where every relative lift of it is 0.
  case difference(Double)
}

/// The power calculation for one metric.
public struct PowerSummary: Hashable, Sendable {
  /// Devices per variant needed to detect the target.
  public var requiredPerVariant: Int?
  /// The fewest devices any compared variant has.
  public var smallestVariant: Int
  /// The chance to detect the target at the smallest variant's size.
  public var achieved: Double?
  public var target: PowerTarget

  public init(requiredPerVariant: Int?, smallestVariant: Int, achieved: Double?, target: PowerTarget) {
    self.requiredPerVariant = requiredPerVariant
    self.smallestVariant = smallestVariant
    self.achieved = achieved
    self.target = target
  }
}

/// Why a comparison cannot be acted on, in the order docs/statistics.md
/// ranks them: what invalidates a comparison outright comes first.
public enum Distrust: Hashable, Sendable {
  /// The first exposures do not follow the configured split: the arms are
  /// not the random halves the test assumes (experiment-wide).
  case sampleRatioMismatch(pValue: Double)
  /// `share` of the counted devices of `variant` (the compared variant or
  /// the baseline) were also shown another variant of the experiment: they
  /// carry a mix of treatments, which pulls the estimate away from the
  /// variant's own effect.
  case contamination(variant: String, share: Double, devices: Int)
  /// The plan reads the test at every daily look: the final p-value is below
  /// alpha but no look crossed its alpha-spending (O'Brien–Fleming)
  /// boundary, so the significance is what peeking finds, not what the
  /// design allows. `firstDay`: the first look whose ordinary p-value fell
  /// below alpha.
  case peeking(firstDay: Int?)
  /// A compared variant has fewer devices than the minimum per variant.
  case tooFewDevices(variant: String, devices: Int, minimum: Int)
  /// The test of a variant against the baseline is undefined although both
  /// have devices: every device in both has the same value (variance 0).
  case undefinedTest(variant: String, test: String)

  /// Its rank: lower invalidates more.
  public var rank: Int {
    switch self {
    case .sampleRatioMismatch: 0
    case .contamination: 1
    case .peeking: 2
    case .tooFewDevices: 3
    case .undefinedTest: 4
    }
  }
}

/// Why a variant should not ship although its comparison can be trusted.
public enum Rejection: Hashable, Sendable {
  /// It is significantly worse than the baseline.
  case worse
  /// Not significant, and its lift interval ends below the planned lift:
  /// the effect worth shipping for is ruled out.
  case plannedEffectRuledOut(upper: Double, planned: Double)
  /// It wins on this metric but is not shown safe on a guardrail metric.
  case guardrail(metric: String)
}

/// What to do with one variant, against the baseline, on one metric.
public enum Decision: Hashable, Sendable {
  case ship
  case doNotShip(Rejection)
  /// Not significant and the planned effect not ruled out: more devices
  /// could decide it. `devicesNeeded`: how many more per variant the power
  /// calculation asks for; `nil` when the planned sample is already reached
  /// or the calculation is not computable.
  case inconclusive(devicesNeeded: Int?)
  case notTrustworthy(Distrust)

  /// The decision's name in results.json and the report.
  public var name: String {
    switch self {
    case .ship: "ship"
    case .doNotShip: "do not ship"
    case .inconclusive: "inconclusive"
    case .notTrustworthy: "not trustworthy"
    }
  }
}

/// What a significant result is worth at the planned effect (Gelman and
/// Carlin, 2014): the power its standard error gives, the chance that a
/// significant estimate has the wrong sign (type S), and how many times too
/// large a significant estimate is on average (type M, the exaggeration ratio).
public struct DesignErrors: Hashable, Sendable {
  public var power: Double
  public var typeS: Double
  public var exaggeration: Double

  public init(power: Double, typeS: Double, exaggeration: Double) {
    self.power = power
    self.typeS = typeS
    self.exaggeration = exaggeration
  }
}

/// The one thing to do on an experiment's metric, from its variants' decisions.
public enum Recommendation: Hashable, Sendable {
  /// Ship this variant: the best of those decided "ship".
  case ship(String)
  /// Keep the baseline: no variant is worth shipping, and each is trusted.
  case keepBaseline
  /// Keep running: some variant is inconclusive. `devicesNeeded`: the most
  /// any inconclusive variant needs, per variant.
  case keepRunning(devicesNeeded: Int?)
  /// Do not trust the results: nothing can be decided, for this reason
  /// (the highest ranked among the variants').
  case doNotTrust(Distrust)
}

/// What the analysis concludes on one metric of one experiment.
public struct MetricAnalysis: Hashable, Sendable {
  /// The verdict results.json has carried since its first format: a
  /// winner when the recommendation ships one, "not trustworthy" when it is
  /// not to be trusted, otherwise "no winner".
  public enum Verdict: Hashable, Sendable {
    case winner(String)
    case noWinner
    case notTrustworthy(Distrust)
  }

  public var metric: String
  public var isConversion: Bool
  /// A ratio metric's analysis (`RatioSummary`), whose estimates are ratios.
  public var isRatio = false
  /// The quantile of a metric's amounts this analysis compares
  /// (`AmountDistribution`), whose estimates are that quantile's.
  public var quantile: Double?
  /// The percentile a winsorized metric's amounts are capped at
  /// (`WinsorizedSummary`), whose estimates are the capped means.
  public var winsorize: Double?

  /// What the analysis compares: "conversion", "continuous", "ratio",
  /// "quantile" or "winsorized".
  public var kind: String {
    isRatio ? "ratio" : quantile != nil ? "quantile" : winsorize != nil ? "winsorized" : isConversion ? "conversion" : "continuous"
  }
  /// Each variant's rate (Wilson interval), mean (t interval), ratio (normal
  /// interval) or quantile (order statistics), in variant order.
  public var estimates: [Estimate?]
  public var omnibus: TestSummary
  public var comparisons: [Comparison]
  public var power: PowerSummary?
  public var recommendation: Recommendation
  /// The variant with the best true lift above 0, when the truth is known.
  public var trueWinner: String?
  /// Whether the truth is known (a simulation) rather than not (real data).
  public var knowsTruth: Bool

  public init(
    metric: String, isConversion: Bool, estimates: [Estimate?], omnibus: TestSummary, comparisons: [Comparison],
    power: PowerSummary?, recommendation: Recommendation, trueWinner: String?, knowsTruth: Bool
  ) {
    self.metric = metric
    self.isConversion = isConversion
    self.estimates = estimates
    self.omnibus = omnibus
    self.comparisons = comparisons
    self.power = power
    self.recommendation = recommendation
    self.trueWinner = trueWinner
    self.knowsTruth = knowsTruth
  }

  public var verdict: Verdict {
    switch recommendation {
    case .ship(let variant): .winner(variant)
    case .doNotTrust(let distrust): .notTrustworthy(distrust)
    case .keepBaseline, .keepRunning: .noWinner
    }
  }

  /// Whether the recommendation is "do not trust": the analysis declined to decide.
  public var isAbstention: Bool {
    if case .doNotTrust = recommendation { return true }
    return false
  }

  /// The variant to ship, if any.
  public var winner: String? {
    if case .ship(let name) = recommendation { return name }
    return nil
  }
}

/// How often the analysis was right over replications of a scenario.
public struct Calibration: Hashable, Sendable {
  public var replications: Int
  public var experiments: [ExperimentCalibration]

  public init(replications: Int, experiments: [ExperimentCalibration]) {
    self.replications = replications
    self.experiments = experiments
  }
}

public struct ExperimentCalibration: Hashable, Sendable {
  public var name: String
  /// What the experiment's one decision did over the replications; `nil`
  /// for an experiment without metrics.
  public var decision: DecisionRates?
  public var metrics: [MetricCalibration]

  public init(name: String, decision: DecisionRates? = nil, metrics: [MetricCalibration]) {
    self.name = name
    self.decision = decision
    self.metrics = metrics
  }
}

public struct MetricCalibration: Hashable, Sendable {
  public var metric: String
  /// How often each variant was declared the winner, in variant order.
  public var winnerRates: [(variant: String, rate: Double)]
  /// How often no winner was declared.
  public var noWinnerRate: Double
  /// How often the verdict was "not trustworthy".
  public var notTrustworthyRate: Double
  /// Verdicts that named the true winner, or no winner where there is none.
  public var correct: Share
  /// Verdicts that named another winner, or no winner where there is one.
  public var wrong: Share
  /// "Not trustworthy" verdicts: the analysis declined to decide, which is
  /// neither right nor wrong, so it is counted apart.
  public var abstained: Share
  public var trueWinner: String?
  /// How often each recommendation came, judged against the truth; `nil`
  /// where the truth is unknown.
  public var decisions: DecisionCalibration?
  public var comparisons: [ComparisonCalibration]

  public init(
    metric: String, winnerRates: [(variant: String, rate: Double)], noWinnerRate: Double, notTrustworthyRate: Double,
    correct: Share, wrong: Share, abstained: Share, trueWinner: String?, decisions: DecisionCalibration?,
    comparisons: [ComparisonCalibration]
  ) {
    self.metric = metric
    self.winnerRates = winnerRates
    self.noWinnerRate = noWinnerRate
    self.notTrustworthyRate = notTrustworthyRate
    self.correct = correct
    self.wrong = wrong
    self.abstained = abstained
    self.trueWinner = trueWinner
    self.decisions = decisions
    self.comparisons = comparisons
  }

  public static func == (lhs: MetricCalibration, rhs: MetricCalibration) -> Bool {
    lhs.metric == rhs.metric && lhs.winnerRates.map(\.variant) == rhs.winnerRates.map(\.variant)
      && lhs.winnerRates.map(\.rate) == rhs.winnerRates.map(\.rate) && lhs.noWinnerRate == rhs.noWinnerRate
      && lhs.notTrustworthyRate == rhs.notTrustworthyRate && lhs.correct == rhs.correct && lhs.wrong == rhs.wrong
      && lhs.abstained == rhs.abstained && lhs.trueWinner == rhs.trueWinner && lhs.decisions == rhs.decisions
      && lhs.comparisons == rhs.comparisons
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(metric)
    hasher.combine(correct)
  }
}

/// What the recommendations on one metric did over replications, against
/// the truth. The first five partition the replications; `wrongSign` counts
/// those in which some variant was decided significantly (ship, or do not
/// ship as worse) in the direction opposite to its true lift.
public struct DecisionCalibration: Hashable, Sendable {
  /// Shipped a variant whose true lift is above 0.
  public var rightShip: Share
  /// Shipped a variant that is not truly better than the baseline.
  public var wrongShip: Share
  /// Kept the baseline: every variant was decided "do not ship".
  public var keepBaseline: Share
  /// Kept running: some variant was inconclusive.
  public var inconclusive: Share
  /// Withheld: "do not trust".
  public var withheld: Share
  public var wrongSign: Share

  public init(
    rightShip: Share, wrongShip: Share, keepBaseline: Share, inconclusive: Share, withheld: Share, wrongSign: Share
  ) {
    self.rightShip = rightShip
    self.wrongShip = wrongShip
    self.keepBaseline = keepBaseline
    self.inconclusive = inconclusive
    self.withheld = withheld
    self.wrongSign = wrongSign
  }
}

/// How many of a number of replications something happened in, with a
/// binomial (Wilson) interval on the share, since a rate from a few hundred
/// replications is itself an estimate.
public struct Share: Hashable, Sendable {
  public var count: Int
  public var of: Int
  public var lower: Double?
  public var upper: Double?

  public init(count: Int, of: Int, lower: Double?, upper: Double?) {
    self.count = count
    self.of = of
    self.lower = lower
    self.upper = upper
  }

  public var rate: Double { of > 0 ? Double(count) / Double(of) : 0 }
}

/// One comparison's record over replications.
public struct ComparisonCalibration: Hashable, Sendable {
  public var variant: String
  public var trueLift: Double?
  /// How often the adjusted p-value was below alpha: the false-positive rate
  /// when the true lift is 0, the power otherwise.
  public var significantRate: Double
  /// How often the lift's interval held the true lift.
  public var coverage: Double?
  /// The mean of the estimated lifts: beside the true lift, the estimate's
  /// bias (a winsorized metric's, or a small sample's).
  public var meanLift: Double?
  /// With daily looks: how often some look's ordinary p-value fell below
  /// alpha (what peeking would have declared), and how often the always-valid one did.
  public var peekingSignificantRate: Double?
  public var alwaysValidSignificantRate: Double?
  /// With daily looks: how often some look crossed its O'Brien–Fleming or
  /// Pocock alpha-spending boundary.
  public var obrienFlemingSignificantRate: Double?
  public var pocockSignificantRate: Double?
  /// On a guardrail metric: how often the variant was shown safe. Where its
  /// true lift is the margin's loss, the false-safe rate: at most alpha.
  public var safeRate: Double?
  /// On a metric adjusted by its covariate (CUPED): how often the unadjusted
  /// p-value was below alpha, uncorrected, the rate the adjustment improves on.
  public var unadjustedSignificantRate: Double?
  /// On an amount: how often an arm was too small for its skewness
  /// (`SkewWarning`), and how often the interval held the truth when it was
  /// and when it was not; `nil` where never, or where the truth is unknown.
  public var skewWarningRate: Double?
  public var coverageWhenWarned: Double?
  public var coverageWhenNotWarned: Double?

  public init(
    variant: String, trueLift: Double?, significantRate: Double, coverage: Double?, meanLift: Double? = nil,
    peekingSignificantRate: Double?,
    alwaysValidSignificantRate: Double?, obrienFlemingSignificantRate: Double? = nil, pocockSignificantRate: Double? = nil,
    safeRate: Double? = nil, unadjustedSignificantRate: Double? = nil
  ) {
    self.variant = variant
    self.trueLift = trueLift
    self.significantRate = significantRate
    self.coverage = coverage
    self.meanLift = meanLift
    self.peekingSignificantRate = peekingSignificantRate
    self.alwaysValidSignificantRate = alwaysValidSignificantRate
    self.obrienFlemingSignificantRate = obrienFlemingSignificantRate
    self.pocockSignificantRate = pocockSignificantRate
    self.safeRate = safeRate
    self.unadjustedSignificantRate = unadjustedSignificantRate
  }
}
