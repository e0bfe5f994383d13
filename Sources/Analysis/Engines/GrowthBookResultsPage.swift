import Results
import ScenarioFormat
import Statistics

/// GrowthBook's results page and its decision, as the GrowthBook app applies
/// gbstats' figures (its `getMetricResultStatus` and
/// `getDecisionFrameworkStatus`, with the defaults of its shared constants).
///
/// Each goal and guardrail metric of each variation gets a status: with the
/// Bayesian engine "won" when its chance to win is above 95% and "lost" below
/// 5%; with the frequentist engines "won" or "lost" when its p-value is below
/// 0.05, by the lift's sign. A status needs enough data (a baseline and a
/// variation value, one of them at least 150: conversions or the amount's
/// total) and a lift of at least 0.5%, else the metric is left unmarked (a
/// significant lift below 0.5% is a "draw"). The decision is read at the
/// run's end, taken as the test's planned length: ship a variation whose goal
/// metrics all won while no guardrail lost (the one with the largest lift on
/// the first goal when several did), roll back when every variation's goals
/// all lost, and keep running otherwise. GrowthBook checks neither
/// contamination nor peeking, and its sample ratio check only warns.
public struct GrowthBookResultsPage: Sendable {
  public enum Engine: Sendable {
    case bayesian
    case frequentist
    case sequential
  }

  public var engine: Engine
  /// The chance to win above which a metric won (and below 1 − it, lost): GrowthBook's 95%.
  public var chanceToWinThreshold = 0.95
  /// GrowthBook's `DEFAULT_P_VALUE_THRESHOLD`.
  public var pValueThreshold = 0.05
  /// GrowthBook's `DEFAULT_MIN_SAMPLE_SIZE`, on a metric's value (conversions or total amount).
  public var minimumSampleSize = 150.0
  /// GrowthBook's `DEFAULT_MIN_PERCENT_CHANGE`: smaller relative changes are a draw.
  public var minimumChange = 0.005
  /// GrowthBook's `DEFAULT_SEQUENTIAL_TESTING_TUNING_PARAMETER`.
  public var sequentialTuningParameter = 5000.0

  public init(engine: Engine) {
    self.engine = engine
  }

  /// A metric's status on the page.
  public enum Status: Hashable, Sendable {
    case won
    case lost
    /// Significant, but a smaller change than GrowthBook's minimum.
    case draw
    /// Nothing to mark.
    case none
  }

  /// The status of `variant`'s metric against `baseline`'s.
  public func status(baseline: MetricSummary, variant: MetricSummary) -> Status {
    mark(baseline: baseline, variant: variant).status
  }

  /// The status of `variant`'s metric against `baseline`'s, with the figure it rests on: the
  /// chance to win on the Bayesian page, the p-value on the others.
  public func mark(baseline: MetricSummary, variant: MetricSummary) -> (status: Status, figure: Double?) {
    guard let a = Self.statistic(baseline), let b = Self.statistic(variant) else { return (.none, nil) }
    let valueA = a.mean * Double(a.n), valueB = b.mean * Double(b.n)
    let enoughData = valueA != 0 && valueB != 0 && max(valueA, valueB) >= minimumSampleSize
    let belowMinimumChange = a.mean != 0 && b.mean != 0 && abs(a.mean - b.mean) / a.mean < minimumChange
    let highlighted = enoughData && !belowMinimumChange
    let significant: Bool, winning: Bool, figure: Double
    switch engine {
    case .bayesian:
      let result = GrowthBookBayesianTest().compare(baseline: a, variation: b)
      significant = result.chanceToWin > chanceToWinThreshold || result.chanceToWin < 1 - chanceToWinThreshold
      winning = result.chanceToWin > chanceToWinThreshold
      figure = result.chanceToWin
    case .frequentist, .sequential:
      let result = engine == .frequentist
        ? GrowthBookTTest().compare(baseline: a, variation: b)
        // GrowthBook hands its p-value threshold to gbstats as alpha, which the sequential test's
        // mixture is tuned with: at 0.1 its p-values are not those of 0.05.
        : GrowthBookSequentialTest(alpha: pValueThreshold, tuningParameter: sequentialTuningParameter)
          .compare(baseline: a, variation: b)
      significant = result.pValue < pValueThreshold
      winning = result.expected > 0
      figure = result.pValue
    }
    if enoughData, belowMinimumChange, significant { return (.draw, figure) }
    guard highlighted, significant else { return (.none, figure) }
    return (winning ? .won : .lost, figure)
  }

  /// The page for `experiment`: its call, and every variation's mark on every metric.
  public func reading(_ experiment: ExperimentResult, settings: AnalysisSettings, engine name: AnalysisEngine) -> EngineReading {
    let marks = MarkedPageCall.pairs(experiment).map { pair in
      let (status, figure) = mark(baseline: pair.baseline, variant: pair.variation)
      let word = switch status {
      case .won: "won"
      case .lost: "lost"
      case .draw: "draw"
      case .none: "none"
      }
      return EngineReading.Mark(
        variant: pair.variant, metric: pair.metric, status: word,
        figureName: engine == .bayesian ? "chance to win" : engine == .sequential ? "sequential p-value" : "p-value",
        figure: figure)
    }
    return EngineReading(
      engine: name.rawValue, title: name.title, call: call(experiment, settings: settings), marks: marks, rule: name.rule(settings))
  }

  /// What the page tells the team to do with `experiment` at the end of the run.
  public func call(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineCall {
    MarkedPageCall.call(experiment, settings: settings) { baseline, variation in
      switch status(baseline: baseline, variant: variation) {
      case .won: .better
      case .lost: .worse
      case .draw, .none: .neither
      }
    }
  }

  /// A metric's summary as gbstats reads it: conversions, or an amount's sum and sum of squares.
  static func statistic(_ summary: MetricSummary) -> GrowthBookStatistic? {
    if summary.isConversion {
      guard let conversions = summary.conversions else { return nil }
      return .proportion(n: summary.n, sum: Double(conversions))
    }
    guard let mean = summary.mean, summary.n > 0 else { return nil }
    let n = Double(summary.n), sum = mean * n
    let variance = summary.variance ?? 0
    return .sampleMean(n: summary.n, sum: sum, sumSquares: variance * (n - 1) + sum * sum / n)
  }
}
