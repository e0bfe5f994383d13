import Results
import ScenarioFormat
import Statistics

/// Eppo's results page with its default analysis method, sequential, as
/// Eppo's documentation describes it ("Analysis methods" and "Statistical
/// nitty-gritty"): each variation's lift over the control on each metric
/// (`EppoLift`), with a sequential confidence interval (`EppoConfidenceSequence`,
/// 95%, tuned for 10,000 subjects) that stays valid however often the page is
/// read. A metric is marked significantly positive or negative when its
/// interval lies wholly above or below 0.
///
/// Eppo corrects for several metrics and variations only when a team turns
/// its preferential Bonferroni on ("Multiple testing correction"), and the
/// page shows no automatic decision; the bench reads it with the correction
/// off and decides as the other pages do: ship a variation that is
/// significantly positive on every success metric while significantly
/// negative on no guardrail (the largest lift on the first success metric
/// when several are), roll back when every variation is significantly
/// negative on every success metric, and keep running otherwise. The page
/// is read without CUPED, whose regression Eppo does not publish.
public struct EppoResultsPage: Sendable {
  /// Eppo's default confidence level.
  public var confidence = 0.95
  /// Eppo's N_tune.
  public var tuningSample = 10_000.0

  public init() {}

  /// A metric's mark on the page.
  public enum Status: String, Hashable, Sendable {
    case positive
    case negative
    case notSignificant = "not significant"
    /// No lift to show: too few subjects, or a control mean of 0.
    case none
  }

  /// `variant`'s lift over `baseline` on one metric, its interval and its mark.
  public func mark(baseline: MetricSummary, variant: MetricSummary)
    -> (status: Status, lift: Double?, interval: (lower: Double, upper: Double)?)
  {
    guard let controlMean = baseline.mean, let controlVariance = baseline.variance,
      let treatmentMean = variant.mean, let treatmentVariance = variant.variance,
      let lift = EppoLift(
        control: (baseline.n, controlMean, controlVariance), treatment: (variant.n, treatmentMean, treatmentVariance))
    else { return (.none, nil, nil) }
    let sequence = EppoConfidenceSequence(confidence: confidence, tuningSample: tuningSample)
    let interval = sequence.interval(lift, sampleSize: baseline.n + variant.n)
    let status: Status = interval.lower > 0 ? .positive : interval.upper < 0 ? .negative : .notSignificant
    return (status, lift.estimate, interval)
  }

  /// The page for `experiment`: its call, and every variation's mark on every metric with its lift.
  public func reading(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineReading {
    let engine = AnalysisEngine.eppoSequential
    let marks = MarkedPageCall.pairs(experiment).map { pair in
      let (status, lift, _) = mark(baseline: pair.baseline, variant: pair.variation)
      return EngineReading.Mark(variant: pair.variant, metric: pair.metric, status: status.rawValue, figureName: "lift", figure: lift)
    }
    return EngineReading(
      engine: engine.rawValue, title: engine.title, call: call(experiment, settings: settings), marks: marks, rule: engine.rule(settings))
  }

  /// What the page tells the team to do with `experiment`, read on its counts so far.
  public func call(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineCall {
    MarkedPageCall.call(experiment, settings: settings) { baseline, variation in
      switch mark(baseline: baseline, variant: variation).status {
      case .positive: .better
      case .negative: .worse
      case .notSignificant, .none: .neither
      }
    }
  }
}
