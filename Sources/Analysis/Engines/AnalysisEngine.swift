import Foundation
import Results
import ScenarioFormat

/// The analysis a team reads its results with: the bench's own decision, or
/// a platform's engine as its results page applies it. The same replications
/// of a plan, read by each, show how often each page would have told the team
/// to ship the wrong variant (`EngineComparison`, `bench compare --engines`).
public enum AnalysisEngine: String, CaseIterable, Sendable {
  /// The bench's one decision per experiment (docs/statistics.md, "One decision per experiment").
  case bench
  /// GrowthBook's default: chance to win from a Gaussian posterior of the lift (gbstats 0.8.0).
  case gbstatsBayesian = "gbstats-bayesian"
  /// GrowthBook's frequentist engine: a Welch t test of the lift.
  case gbstatsFrequentist = "gbstats-frequentist"
  /// GrowthBook's frequentist engine with sequential testing on: an always-valid mixture test.
  case gbstatsSequential = "gbstats-sequential"
  /// Optimizely's Stats Engine: always-valid mSPRT p-values with false discovery rate control.
  case optimizelyStatsEngine = "optimizely-stats-engine"

  /// The engine's name on a report.
  public var title: String {
    switch self {
    case .bench: "Lab Bench"
    case .gbstatsBayesian: "GrowthBook Bayesian"
    case .gbstatsFrequentist: "GrowthBook frequentist"
    case .gbstatsSequential: "GrowthBook sequential"
    case .optimizelyStatsEngine: "Optimizely Stats Engine"
    }
  }

  /// What the engine's results page tells the team to do with `experiment` at the end of the run.
  public func call(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineCall {
    switch self {
    case .bench:
      return experiment.decision.map { Self.bench.call($0.action) } ?? .keepRunning
    case .gbstatsBayesian: return GrowthBookResultsPage(engine: .bayesian).call(experiment, settings: settings)
    case .gbstatsFrequentist: return GrowthBookResultsPage(engine: .frequentist).call(experiment, settings: settings)
    case .gbstatsSequential: return GrowthBookResultsPage(engine: .sequential).call(experiment, settings: settings)
    case .optimizelyStatsEngine: return OptimizelyResultsPage().call(experiment, settings: settings)
    }
  }

  /// The bench's decision as a call.
  func call(_ action: ExperimentDecision.Action) -> EngineCall {
    switch action {
    case .ship(let variant): .ship(variant)
    case .keepBaseline: .keepBaseline
    case .doNotTrust: .withheld
    case .keepRunning: .keepRunning
    }
  }

  /// The engines of a comma-separated list, such as `--engines`' value; an unknown name is an error
  /// that lists the known ones.
  public static func list(_ text: String) throws(EngineListError) -> [AnalysisEngine] {
    var engines: [AnalysisEngine] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
      guard let engine = AnalysisEngine(rawValue: name) else { throw EngineListError(name: name) }
      if !engines.contains(engine) { engines.append(engine) }
    }
    return engines
  }
}

/// An engine name that names no engine.
public struct EngineListError: Error, Sendable, CustomStringConvertible {
  public let name: String

  public var description: String {
    (name.isEmpty ? "an empty engine name" : "no engine is called '\(name)'") + "; the engines are "
      + AnalysisEngine.allCases.map(\.rawValue).joined(separator: ", ")
  }
}

/// What an engine's page tells a team to do with an experiment.
public enum EngineCall: Hashable, Sendable {
  case ship(String)
  /// Every variation lost: roll back to the baseline.
  case keepBaseline
  /// Nothing conclusive yet.
  case keepRunning
  /// The engine withholds the decision (the bench does on a sample ratio mismatch, contamination or peeking).
  case withheld
}
