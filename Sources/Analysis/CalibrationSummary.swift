import Results
import ScenarioFormat
import Statistics

/// How often the analysis of replications of one scenario was right: the
/// winners it declared, how often its verdict was correct, wrong, or withheld
/// as not trustworthy (each with its binomial interval), what its
/// recommendations did against the truth (right and wrong ships, the
/// baseline kept, kept running, withheld, wrong signs), its false positives
/// on arms whose true lift is 0, its power on true effects, and how often its
/// intervals held the truth.
///
/// It counts as replications come, so that a run keeps one replication's
/// document at a time however many it makes.
public struct CalibrationSummary: Sendable {
  private let alpha: Double
  private var replications = 0
  /// The first replication's shape and names: the experiments, metrics and
  /// comparisons every replication of a scenario shares.
  private var first: ResultsDocument?
  /// By experiment, then metric.
  private var metrics: [[MetricCounts]] = []
  /// By experiment: what its one decision did.
  private var decisions: [DecisionCounts] = []

  public init(alpha: Double) {
    self.alpha = alpha
  }

  /// Every replication's analysed document, in order, at once.
  public static func calibrate(_ documents: [ResultsDocument], alpha: Double) -> Calibration {
    var summary = CalibrationSummary(alpha: alpha)
    for document in documents { summary.add(document) }
    return summary.calibration
  }

  /// Counts one replication's analysed document.
  public mutating func add(_ document: ResultsDocument) {
    if first == nil {
      first = document
      metrics = document.experiments.map { experiment in
        experiment.analysis.map { analysis in
          MetricCounts(variants: experiment.variants.count, comparisons: analysis.comparisons.count, trueWinner: analysis.trueWinner)
        }
      }
    }
    replications += 1
    if decisions.isEmpty { decisions = Array(repeating: DecisionCounts(), count: document.experiments.count) }
    for (experimentIndex, experiment) in document.experiments.enumerated() {
      if let decision = experiment.decision { decisions[experimentIndex].add(decision) }
      let names = experiment.variants.map(\.name)
      for (metricIndex, analysis) in experiment.analysis.enumerated() {
        metrics[experimentIndex][metricIndex].add(analysis, variants: names, alpha: alpha)
      }
    }
  }

  /// The rates so far; at least one replication must have been added.
  public var calibration: Calibration {
    let first = first!
    let count = Double(replications)
    func rate(_ counted: Int) -> Double { Double(counted) / count }
    func share(_ counted: Int) -> Share { .wilson(counted, of: replications) }
    let experiments = first.experiments.enumerated().map { experimentIndex, experiment in
      let calibrated = experiment.analysis.enumerated().map { metricIndex, analysis in
        let counts = metrics[experimentIndex][metricIndex]
        let comparisons = analysis.comparisons.enumerated().map { index, comparison in
          let counted = counts.comparisons[index]
          func looks(_ crossed: Int) -> Double? { counted.allHaveLooks ? rate(crossed) : nil }
          var calibrated = ComparisonCalibration(
            variant: comparison.variant, trueLift: comparison.trueLift, significantRate: rate(counted.significant),
            coverage: counted.withTruth == 0 ? nil : Double(counted.covered) / Double(counted.withTruth),
            meanLift: counted.lifts == 0 ? nil : counted.liftSum / Double(counted.lifts),
            peekingSignificantRate: looks(counted.peeking), alwaysValidSignificantRate: looks(counted.alwaysValid),
            obrienFlemingSignificantRate: looks(counted.obrienFleming), pocockSignificantRate: looks(counted.pocock),
            safeRate: counted.allHaveGuardrail ? rate(counted.safe) : nil,
            unadjustedSignificantRate: counted.allAdjusted ? rate(counted.unadjustedSignificant) : nil)
          if counted.skewed > 0 {
            calibrated.skewWarningRate = rate(counted.skewed)
            calibrated.coverageWhenWarned = counted.skewedWithTruth > 0
              ? Double(counted.skewedCovered) / Double(counted.skewedWithTruth) : nil
            let unwarned = counted.withTruth - counted.skewedWithTruth
            calibrated.coverageWhenNotWarned = unwarned > 0
              ? Double(counted.covered - counted.skewedCovered) / Double(unwarned) : nil
          }
          return calibrated
        }
        return MetricCalibration(
          metric: analysis.metric,
          winnerRates: zip(experiment.variants, counts.winners).map { ($0.name, rate($1)) },
          noWinnerRate: rate(counts.noWinner), notTrustworthyRate: rate(counts.abstained),
          correct: share(counts.correct), wrong: share(counts.wrong), abstained: share(counts.abstained),
          trueWinner: analysis.trueWinner,
          decisions: analysis.knowsTruth
            ? DecisionCalibration(
              rightShip: share(counts.rightShip), wrongShip: share(counts.wrongShip),
              keepBaseline: share(counts.keepBaseline), inconclusive: share(counts.keepRunning),
              withheld: share(counts.abstained), wrongSign: share(counts.wrongSign))
            : nil,
          comparisons: comparisons)
      }
      let counts = decisions[experimentIndex]
      let rates = experiment.decision.map { _ in
        counts.outcomes.rates(
          of: replications, devicesPerVariant: counts.sized == 0 ? nil : Int((counts.sizeSum / Double(counts.sized)).rounded()))
      }
      return ExperimentCalibration(name: experiment.name, decision: rates, metrics: calibrated)
    }
    return Calibration(replications: replications, experiments: experiments)
  }
}

/// What the replications so far did on one metric of one experiment.
private struct MetricCounts: Sendable {
  /// The first replication's true winner, against which every verdict is judged.
  let trueWinner: String?
  var winners: [Int]
  var noWinner = 0, abstained = 0, correct = 0, wrong = 0
  var rightShip = 0, wrongShip = 0, keepBaseline = 0, keepRunning = 0, wrongSign = 0
  var comparisons: [ComparisonCounts]

  init(variants: Int, comparisons: Int, trueWinner: String?) {
    self.trueWinner = trueWinner
    winners = Array(repeating: 0, count: variants)
    self.comparisons = Array(repeating: ComparisonCounts(), count: comparisons)
  }

  mutating func add(_ analysis: MetricAnalysis, variants: [String], alpha: Double) {
    if let winner = analysis.winner, let index = variants.firstIndex(of: winner) { winners[index] += 1 }
    if analysis.verdict == .noWinner { noWinner += 1 }
    if analysis.isAbstention {
      abstained += 1
    } else if analysis.winner == trueWinner {
      correct += 1
    } else {
      wrong += 1
    }
    switch analysis.recommendation {
    case .ship(let variant):
      let truth = analysis.comparisons.first { $0.variant == variant }?.trueLift ?? 0
      if truth > 1e-12 { rightShip += 1 } else { wrongShip += 1 }
    case .keepBaseline: keepBaseline += 1
    case .keepRunning: keepRunning += 1
    case .doNotTrust: break
    }
    if analysis.comparisons.contains(where: \.hasWrongSign) { wrongSign += 1 }
    for (index, comparison) in analysis.comparisons.enumerated() {
      comparisons[index].add(comparison, alpha: alpha)
    }
  }
}

/// What the replications so far did with one experiment's decision.
private struct DecisionCounts: Sendable {
  var outcomes = DecisionOutcomes()
  /// The decision's sample size, summed over the replications that computed it.
  var sizeSum = 0.0, sized = 0

  mutating func add(_ decision: ExperimentDecision) {
    outcomes.add(AnalysisEngine.bench.call(decision.action), decision: decision)
    if let size = decision.devicesPerVariant {
      sizeSum += Double(size)
      sized += 1
    }
  }
}

/// What the replications so far did on one comparison.
private struct ComparisonCounts: Sendable {
  var significant = 0, covered = 0, withTruth = 0
  /// The lifts estimated, for their mean: its distance from the true lift is the estimate's bias.
  var liftSum = 0.0, lifts = 0
  var allHaveLooks = true, peeking = 0, alwaysValid = 0, obrienFleming = 0, pocock = 0
  var allHaveGuardrail = true, safe = 0
  var allAdjusted = true, unadjustedSignificant = 0
  /// Replications whose comparison carried a skew warning, and of those with
  /// an interval and a truth, how many held it.
  var skewed = 0, skewedWithTruth = 0, skewedCovered = 0

  mutating func add(_ comparison: Comparison, alpha: Double) {
    if (comparison.adjustedPValue ?? 1) < alpha { significant += 1 }
    if comparison.skewWarning != nil { skewed += 1 }
    if let interval = comparison.liftInterval, let truth = comparison.trueLift {
      let holds = interval.lower <= truth && truth <= interval.upper
      withTruth += 1
      if holds { covered += 1 }
      if comparison.skewWarning != nil {
        skewedWithTruth += 1
        if holds { skewedCovered += 1 }
      }
    }
    if let lift = comparison.lift, lift.isFinite {
      liftSum += lift
      lifts += 1
    }
    if comparison.looks.isEmpty {
      allHaveLooks = false
    } else {
      if comparison.looks.contains(where: { ($0.pValue ?? 1) < alpha }) { peeking += 1 }
      if comparison.looks.contains(where: { ($0.alwaysValidPValue ?? 1) < alpha }) { alwaysValid += 1 }
      if comparison.looks.contains(where: { $0.crosses($0.obrienFlemingAlpha) }) { obrienFleming += 1 }
      if comparison.looks.contains(where: { $0.crosses($0.pocockAlpha) }) { pocock += 1 }
    }
    if let adjustment = comparison.covariateAdjustment {
      if (adjustment.unadjusted.pValue ?? 1) < alpha { unadjustedSignificant += 1 }
    } else {
      allAdjusted = false
    }
    if let guardrail = comparison.nonInferiority {
      if guardrail.isSafe { safe += 1 }
    } else {
      allHaveGuardrail = false
    }
  }
}

extension Comparison {
  /// Whether the comparison was decided significantly (ship, or do not ship
  /// as worse) in the direction opposite to its true lift.
  fileprivate var hasWrongSign: Bool {
    guard let truth = trueLift, abs(truth) > 1e-12 else { return false }
    switch decision {
    case .ship: return truth < 0
    case .doNotShip(.worse): return truth > 0
    default: return false
    }
  }
}
