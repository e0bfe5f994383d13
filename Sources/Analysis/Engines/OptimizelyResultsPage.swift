import Results
import ScenarioFormat
import Statistics

/// Optimizely's Stats Engine as its results page decides, from its published
/// method (Johari, Koomen, Pekelis and Walsh, "Always Valid Inference:
/// Continuous Monitoring of A/B Tests", Operations Research, 2022; Optimizely's
/// support articles "Why Stats Engine controls for false discovery instead of
/// false positives" and "False discovery rate control"): each metric of each
/// variation is tested by a mixture sequential probability ratio test
/// (mSPRT) on the difference of means, looked at the end of every day, so
/// that its p-value stays valid however often the page is read; the p-values
/// of all the experiment's metrics and variations are then adjusted together
/// by Benjamini and Hochberg's procedure, which controls the false discovery
/// rate; a result is conclusive when its statistical significance, one less
/// the adjusted p-value, reaches the threshold (Optimizely's default 90%).
///
/// The mixture's variance is not published; the bench takes the one its own
/// always-valid test uses (the planned effect, or `analysis.alwaysValidMixture`,
/// times the baseline's mean at the last look, squared), so that the two are
/// compared on the same footing. The decision ships a variation that is a
/// winner on every success metric while no guardrail is a loser, rolls back
/// when every variation is a loser on every success metric, and keeps running
/// otherwise.
public struct OptimizelyResultsPage: Sendable {
  /// Optimizely's default statistical significance threshold.
  public var significance = 0.90

  public init() {}

  /// A metric's conclusion for a variation on the page.
  public enum Status: Hashable, Sendable {
    case winner
    case loser
    case inconclusive
  }

  /// Each variation's status per metric (variations other than the baseline, in order), read at the
  /// end of the experiment's last daily look (or once, on its final counts, without daily counts).
  public func statuses(_ experiment: ExperimentResult, settings: AnalysisSettings) -> [String: [String: Status]] {
    var statuses: [String: [String: Status]] = [:]
    for mark in marks(experiment, settings: settings) { statuses[mark.variant, default: [:]][mark.metric] = mark.status }
    return statuses
  }

  /// The page for `experiment`: its call, and every variation's mark on every metric with its
  /// statistical significance.
  public func reading(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineReading {
    let marks = self.marks(experiment, settings: settings).map { mark in
      let word = switch mark.status {
      case .winner: "winner"
      case .loser: "loser"
      case .inconclusive: "inconclusive"
      }
      return EngineReading.Mark(
        variant: mark.variant, metric: mark.metric, status: word, figureName: "statistical significance",
        figure: mark.significance)
    }
    return EngineReading(
      engine: AnalysisEngine.optimizelyStatsEngine.rawValue, title: AnalysisEngine.optimizelyStatsEngine.title,
      call: call(experiment, settings: settings), marks: marks, rule: AnalysisEngine.optimizelyStatsEngine.rule(settings))
  }

  /// Each variation's mark per metric in the page's order, with its statistical significance (one less the
  /// adjusted always-valid p-value), `nil` where it has none.
  func marks(_ experiment: ExperimentResult, settings: AnalysisSettings)
    -> [(variant: String, metric: String, status: Status, significance: Double?)]
  {
    guard let baselineIndex = experiment.variants.firstIndex(where: { $0.name == experiment.baseline }) else { return [] }
    let metrics = experiment.variants[baselineIndex].metrics.map(\.name)
    let history = experiment.dailyMetrics.isEmpty ? [experiment.variants.map(\.metrics)] : experiment.dailyMetrics
    var tests: [(variant: String, metric: String, pValue: Double?, difference: Double)] = []
    for (variantIndex, variant) in experiment.variants.enumerated() where variantIndex != baselineIndex && variant.retiredIn == nil {
      for (metricIndex, metric) in metrics.enumerated() {
        guard let last = history.last, metricIndex < last[baselineIndex].count, metricIndex < last[variantIndex].count else { continue }
        let scale = (settings.alwaysValidMixture ?? settings.minimumDetectableEffect) * (last[baselineIndex][metricIndex].mean ?? 0)
        guard scale != 0 else {
          tests.append((variant.name, metric, nil, 0))
          continue
        }
        var sequential = SequentialTest(mixtureVariance: scale * scale)
        var difference = 0.0
        for day in history {
          let control = day[baselineIndex][metricIndex], treated = day[variantIndex][metricIndex]
          guard control.n > 1, treated.n > 1 else { continue }
          difference = (treated.mean ?? 0) - (control.mean ?? 0)
          let variance = (control.variance ?? 0) / Double(control.n) + (treated.variance ?? 0) / Double(treated.n)
          sequential.look(estimate: difference, variance: variance)
        }
        tests.append((variant.name, metric, sequential.pValue, difference))
      }
    }
    let adjusted = MultipleComparisons.benjaminiHochberg(tests.map(\.pValue))
    return zip(tests, adjusted).map { test, q in
      let conclusive = q.map { 1 - $0 >= significance } ?? false
      let status: Status = !conclusive || test.difference == 0 ? .inconclusive : test.difference > 0 ? .winner : .loser
      return (test.variant, test.metric, status, q.map { 1 - $0 })
    }
  }

  /// What the page tells the team to do with `experiment`.
  public func call(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineCall {
    let statuses = self.statuses(experiment, settings: settings)
    return MarkedPageCall.call(experiment, settings: settings) { variant, metric in
      switch statuses[variant.name]?[metric] ?? .inconclusive {
      case .winner: .better
      case .loser: .worse
      case .inconclusive: .neither
      }
    }
  }
}
