import Results
import ScenarioFormat

extension AnalysisEngine {
  /// What the engine's results page tells the team to do with `experiment` at the end of the run.
  public func call(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineCall {
    switch self {
    case .bench: experiment.decision.map { Self.bench.call($0.action) } ?? .keepRunning
    case .gbstatsBayesian, .gbstatsFrequentist, .gbstatsSequential: growthBookPage(settings).call(experiment, settings: settings)
    case .confidence: confidencePage(settings).call(experiment, settings: settings)
    case .optimizelyStatsEngine: optimizelyPage(settings).call(experiment, settings: settings)
    case .eppoSequential: eppoPage(settings).call(experiment, settings: settings)
    }
  }

  /// The engine's results page for `experiment`, beside the bench's decision; `nil` for the bench, whose
  /// decision the report already is.
  public func reading(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineReading? {
    switch self {
    case .bench: nil
    case .gbstatsBayesian, .gbstatsFrequentist, .gbstatsSequential:
      growthBookPage(settings).reading(experiment, settings: settings, engine: self)
    case .confidence: confidencePage(settings).reading(experiment, settings: settings)
    case .optimizelyStatsEngine: optimizelyPage(settings).reading(experiment, settings: settings)
    case .eppoSequential: eppoPage(settings).reading(experiment, settings: settings)
    }
  }

  /// The first of `experiment`'s daily `looks` on which the engine's page, read every day, ships or keeps
  /// the baseline, and that call; `nil` when it never does. The bench decides each look afresh
  /// (`decide`); Confidence reads its looks towards the plan of the whole run's decision, extending its
  /// bounds day by day (without a plan, each day is a fixed-horizon read of that day's counts).
  func firstCall(
    _ experiment: ExperimentResult, looks: [ExperimentResult], settings: AnalysisSettings,
    decide: (ExperimentResult) -> ExperimentResult
  ) -> (day: Int, call: EngineCall)? {
    if self == .confidence, let plan = experiment.decision?.devicesPerVariant {
      return confidencePage(settings).firstCall(experiment, settings: settings, devicesPerVariant: plan)
    }
    for (day, look) in looks.enumerated() {
      let call = call(self == .bench ? decide(look) : look, settings: settings)
      switch call {
      case .ship, .keepBaseline: return (day, call)
      case .keepRunning, .withheld: continue
      }
    }
    return nil
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

  /// GrowthBook's page with the team's settings.
  private func growthBookPage(_ settings: AnalysisSettings) -> GrowthBookResultsPage {
    var page = GrowthBookResultsPage(
      engine: self == .gbstatsBayesian ? .bayesian : self == .gbstatsFrequentist ? .frequentist : .sequential)
    page.chanceToWinThreshold = settings.value(.chanceToWin, for: self)
    page.pValueThreshold = settings.value(.pValue, for: self)
    page.minimumSampleSize = settings.value(.minimumSampleSize, for: self)
    page.minimumChange = settings.value(.minimumChange, for: self)
    page.sequentialTuningParameter = settings.value(.tuningParameter, for: self)
    return page
  }

  private func confidencePage(_ settings: AnalysisSettings) -> ConfidenceResultsPage {
    var page = ConfidenceResultsPage()
    page.intervalSize = 1 - settings.value(.alpha, for: self)
    return page
  }

  private func optimizelyPage(_ settings: AnalysisSettings) -> OptimizelyResultsPage {
    var page = OptimizelyResultsPage()
    page.significance = settings.value(.significance, for: self)
    return page
  }

  private func eppoPage(_ settings: AnalysisSettings) -> EppoResultsPage {
    var page = EppoResultsPage()
    page.confidence = settings.value(.confidenceLevel, for: self)
    page.tuningSample = settings.value(.tuningParameter, for: self)
    return page
  }
}
