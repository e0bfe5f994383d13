import Results
import ScenarioFormat

/// The call read from a results page that marks each variation's metrics
/// better or worse than the baseline: GrowthBook's decision framework
/// (`getDecisionFrameworkStatus`), which the bench applies to Optimizely's
/// and Eppo's pages too, since neither publishes a rule of its own. A
/// variation ships when it is better on every success metric and worse on
/// no guardrail (of several, the one whose first success metric's mean
/// gains most on the baseline's); the baseline stays when every variation
/// is worse on every success metric; otherwise the test keeps running.
enum MarkedPageCall {
  /// How a page marks one variation's metric.
  enum Mark {
    case better
    case worse
    case neither
  }

  /// Each live variation's summary of each of the baseline's metrics beside the baseline's, in the order
  /// a page lists them: what a page that compares each pair on its own marks.
  static func pairs(_ experiment: ExperimentResult)
    -> [(variant: String, metric: String, baseline: MetricSummary, variation: MetricSummary)]
  {
    guard let baseline = experiment.variants.first(where: { $0.name == experiment.baseline }) else { return [] }
    var pairs: [(variant: String, metric: String, baseline: MetricSummary, variation: MetricSummary)] = []
    for variant in experiment.variants where variant.name != experiment.baseline && variant.retiredIn == nil {
      for metric in baseline.metrics {
        guard let summary = variant.metrics.first(where: { $0.name == metric.name }) else { continue }
        pairs.append((variant.name, metric.name, metric, summary))
      }
    }
    return pairs
  }

  /// The call on `experiment` of a page that marks each variation's metric from it and the baseline's
  /// alone (a metric either lacks is marked neither).
  static func call(
    _ experiment: ExperimentResult, settings: AnalysisSettings, pairwise mark: (_ baseline: MetricSummary, _ variation: MetricSummary) -> Mark
  ) -> EngineCall {
    guard let baseline = experiment.variants.first(where: { $0.name == experiment.baseline }) else { return .keepRunning }
    return call(experiment, settings: settings) { variant, metric in
      guard let a = baseline.metrics.first(where: { $0.name == metric }), let b = variant.metrics.first(where: { $0.name == metric })
      else { return .neither }
      return mark(a, b)
    }
  }

  /// The call on `experiment`, given how the page marks a variation's metric (by name).
  static func call(
    _ experiment: ExperimentResult, settings: AnalysisSettings, mark: (VariantResult, String) -> Mark
  ) -> EngineCall {
    guard let baseline = experiment.variants.first(where: { $0.name == experiment.baseline }) else { return .keepRunning }
    let names = baseline.metrics.map(\.name)
    let goals = settings.successMetrics(among: names), guardrails = names.filter { settings.guardrails[$0] != nil }
    guard let first = goals.first else { return .keepRunning }
    let baselineMean = baseline.metrics.first { $0.name == first }?.mean ?? 0
    var winners: [(variant: String, gain: Double)] = []
    var losing = 0, candidates = 0
    for variant in experiment.variants where variant.name != experiment.baseline && variant.retiredIn == nil {
      candidates += 1
      let marks = goals.map { mark(variant, $0) }
      if marks.allSatisfy({ $0 == .better }), !guardrails.contains(where: { mark(variant, $0) == .worse }) {
        winners.append((variant.name, (variant.metrics.first { $0.name == first }?.mean).map { $0 - baselineMean } ?? 0))
      }
      if marks.allSatisfy({ $0 == .worse }) { losing += 1 }
    }
    if let best = winners.max(by: { $0.gain < $1.gain }) { return .ship(best.variant) }
    if candidates > 0, losing == candidates { return .keepBaseline }
    return .keepRunning
  }
}
