import Foundation

/// The analysis a team reads its results with: the bench's own decision, or a
/// platform's engine as its results page applies it. The scenario's
/// `analysis.engine` and `--engine` name one for a report; the same
/// replications of a plan, read by several, show how often each page would
/// have told the team to ship the wrong variant (`bench compare --engines`).
/// Analysis implements each.
public enum AnalysisEngine: String, CaseIterable, Hashable, Sendable {
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

  /// How the engine's page marks a metric and decides, in a sentence for a report.
  public var rule: String {
    switch self {
    case .bench:
      "The bench's one decision per experiment (docs/statistics.md)."
    case .gbstatsBayesian:
      "A metric won when its chance to win is above 95% and lost when below 5%, once one arm has 150 conversions (or an "
        + "amount totalling 150) and the change is 0.5% or more; a variation ships when it won on every success metric and "
        + "lost no guardrail."
    case .gbstatsFrequentist, .gbstatsSequential:
      "A metric won or lost when its \(self == .gbstatsSequential ? "sequential " : "")p-value is below 0.05, by the "
        + "lift's sign, once one arm has 150 conversions (or an amount totalling 150) and the change is 0.5% or more; a "
        + "variation ships when it won on every success metric and lost no guardrail."
    case .optimizelyStatsEngine:
      "A metric is a winner or a loser when its statistical significance (always valid, adjusted for the false discovery "
        + "rate) reaches 90%; a variation ships when it is a winner on every success metric and a loser on no guardrail."
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

  public init(name: String) {
    self.name = name
  }

  public var description: String {
    (name.isEmpty ? "an empty engine name" : "no engine is called '\(name)'") + "; the engines are "
      + AnalysisEngine.allCases.map(\.rawValue).joined(separator: ", ")
  }
}
