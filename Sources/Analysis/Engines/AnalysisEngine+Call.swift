import Results
import ScenarioFormat

extension AnalysisEngine {
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

  /// The engine's results page for `experiment`, beside the bench's decision; `nil` for the bench, whose
  /// decision the report already is.
  public func reading(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineReading? {
    switch self {
    case .bench: nil
    case .gbstatsBayesian: GrowthBookResultsPage(engine: .bayesian).reading(experiment, settings: settings, engine: self)
    case .gbstatsFrequentist: GrowthBookResultsPage(engine: .frequentist).reading(experiment, settings: settings, engine: self)
    case .gbstatsSequential: GrowthBookResultsPage(engine: .sequential).reading(experiment, settings: settings, engine: self)
    case .optimizelyStatsEngine: OptimizelyResultsPage().reading(experiment, settings: settings)
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
}
