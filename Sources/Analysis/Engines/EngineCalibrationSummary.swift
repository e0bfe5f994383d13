import Results
import ScenarioFormat

/// Counts, replication by replication, what each engine decided for each
/// experiment, so that memory does not grow with the replications
/// (`CalibrationSummary` does the same for the bench's own analysis). A
/// ship is judged by the truth the bench's decision computes for every
/// variant at the run's end, so that every engine, and every look, is held to
/// the same definition of right.
///
/// With the plan's daily looks (`analysis.dailyLooks`), each engine also
/// reads the experiment as it stood at the end of every day, and the first
/// day it calls the test (a ship or a roll-back) is what a team that acts on
/// the first call would have done: the price of reading a fixed-horizon page
/// every day.
public struct EngineCalibrationSummary: Sendable {
  public let engines: [AnalysisEngine]
  private let settings: AnalysisSettings
  private var names: [String] = []
  /// Per engine, per experiment.
  private var counts: [[EngineCounts]] = []
  private var replications = 0

  public init(engines: [AnalysisEngine], settings: AnalysisSettings) {
    self.engines = engines
    self.settings = settings
  }

  /// The next replication's analysed document.
  public mutating func add(_ document: ResultsDocument) {
    if replications == 0 {
      names = document.experiments.map(\.name)
      counts = engines.map { _ in Array(repeating: EngineCounts(), count: names.count) }
    }
    replications += 1
    // A look is the bench's decision afresh; no engine's page is needed beside it.
    var lookSettings = settings
    lookSettings.engines = []
    let analyzer = ExperimentAnalyzer(settings: lookSettings)
    for (index, experiment) in document.experiments.enumerated() where index < names.count {
      let days = settings.dailyLooks ? experiment.dailyMetrics.count : 0
      let looks = (0..<days).map { experiment.look(day: $0) }
      for (engineIndex, engine) in engines.enumerated() {
        counts[engineIndex][index].final.add(engine.call(experiment, settings: settings), decision: experiment.decision)
        guard days > 0 else { continue }
        // The bench decides a day's look as it decides the run: analysed afresh, and only up to its first call.
        let first = engine.firstCall(experiment, looks: looks, settings: settings) { analyzer.analyze($0) }
        counts[engineIndex][index].firstCall.add(first?.call ?? .keepRunning, decision: experiment.decision)
        if let first { counts[engineIndex][index].callDays.append(first.day) }
        counts[engineIndex][index].looked = true
      }
    }
  }

  /// The rates so far.
  public var calibration: EngineCalibration {
    EngineCalibration(
      replications: replications,
      engines: zip(engines, counts).map { engine, experiments in
        EngineCalibration.Engine(
          name: engine.rawValue, title: engine.title,
          experiments: zip(names, experiments).map { name, counts in
            EngineCalibration.Experiment(
              name: name, rates: counts.final.rates(of: replications),
              dailyLooks: counts.looked
                ? EngineCalibration.DailyLooks(
                  rates: counts.firstCall.rates(of: replications), called: counts.callDays.count,
                  firstCallDay: EngineCalibration.Quartiles(counts.callDays))
                : nil)
          })
      })
  }
}

/// What the replications so far did with one experiment under one engine.
private struct EngineCounts: Sendable {
  /// Read at the run's end.
  var final = DecisionOutcomes()
  /// Read daily, acting on the first call.
  var firstCall = DecisionOutcomes()
  var callDays: [Int] = []
  var looked = false
}

extension ExperimentResult {
  /// The experiment as it stood at the end of `day` (0 is the first): each variant's
  /// metrics over the devices counted by then, and the days so far, as a results page would
  /// have shown it.
  func look(day: Int) -> ExperimentResult {
    var view = self
    for index in view.variants.indices {
      let metrics = dailyMetrics[day][index]
      view.variants[index].metrics = metrics
      if dailyNewExposures.indices.contains(index) {
        let exposed = dailyNewExposures[index].prefix(day + 1).reduce(0, +)
        view.variants[index].firstExposed = exposed
        view.variants[index].exposed = exposed
      }
      view.variants[index].ratios = []
      view.variants[index].distributions = []
      view.variants[index].winsorized = []
    }
    view.dailyMetrics = Array(dailyMetrics.prefix(day + 1))
    view.dailyNewExposures = dailyNewExposures.map { Array($0.prefix(day + 1)) }
    view.rawOutcomes = []
    view.analysis = []
    view.decision = nil
    view.srm = nil
    view.enrollment = nil
    return view
  }
}
