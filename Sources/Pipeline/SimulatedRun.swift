import Analysis
import Expectations
import Report
import Results
import ScenarioFormat
import Simulation

/// A simulation's replications turned into the report folder.
///
/// A one-machine run and a merge of shards both end here, so the same tallies
/// give the same report.md and results.json, byte for byte. Each replication
/// is analysed as it is added and folded into the calibration, so memory does
/// not grow with their number: only the first replication's document is kept.
public struct SimulatedRun: Sendable {
  public let scenario: Scenario
  public let plan: SimulationPlan
  /// How many replications the run makes, which each document states.
  public let replications: Int
  private var first: ResultsDocument?
  private var calibration: CalibrationSummary
  private var added = 0
  /// Every replication's decisions under other analysis engines, when a comparison asks for them.
  public var engines: EngineCalibrationSummary?
  /// The decisions with the adoption curves at the ends of their intervals
  /// (`simulateAdoptionEnds`), which the calibration then carries.
  public var adoptionEnds: [AdoptionEndCalibration] = []

  /// How each replication is analysed and the run reported.
  public let pipeline: AnalysisPipeline

  public init(scenario: Scenario, plan: SimulationPlan, replications: Int) {
    self.scenario = scenario
    self.plan = plan
    self.replications = replications
    pipeline = AnalysisPipeline(simulating: scenario)
    calibration = CalibrationSummary(alpha: scenario.analysis.alpha)
  }

  /// Analyses the next replication's tally, in replication order.
  public mutating func add(_ tally: RunTally) {
    add(analyzer(tally))
  }

  /// The next replication's analysed document, in replication order.
  public mutating func add(_ document: ResultsDocument) {
    if first == nil { first = document }
    if replications > 1 { calibration.add(document) }
    engines?.add(document)
    added += 1
  }

  /// What turns a replication's tally into its analysed document: a pure
  /// function, so that replications can be analysed on any thread and added
  /// in order.
  public var analyzer: @Sendable (RunTally) -> ResultsDocument {
    let pipeline = pipeline, plan = plan, replications = replications
    return { tally in pipeline.analyze(ResultsDocument(plan: plan, tally: tally, replications: replications)) }
  }

  /// Simulates and analyses replications `range` on `threads` threads and
  /// adds them in replication order; `progress` gets the devices done so far
  /// in the range. A replication's devices come in batches: where they are
  /// few, batches leave cores idle at each replication's end and the
  /// analysis would run alone, so replications run side by side instead, each
  /// on one thread. Many batches fill the cores within a replication and
  /// report progress batch by batch. Either way the documents are the same.
  public mutating func simulate(
    _ range: Range<Int>, of simulator: Simulator, threads: Int, progress: (Int) -> Void = { _ in }
  ) async {
    let devices = plan.scenario.devices
    let batches = (devices + simulator.batchSize - 1) / simulator.batchSize
    if range.count > 1, batches < 4 * threads {
      await simulateSideBySide(range, of: simulator, threads: threads) { progress($0 * devices) }
      return
    }
    for replication in range {
      let done = (replication - range.lowerBound) * devices
      add(await simulator.run(replication: replication, threads: threads) { progress(done + $0) })
    }
  }

  /// Simulates and analyses replications `range`, up to `threads` of them at
  /// once on one thread each; `progress` gets the replications done so far.
  private mutating func simulateSideBySide(
    _ range: Range<Int>, of simulator: Simulator, threads: Int, progress: (Int) -> Void
  ) async {
    let analyze = analyzer
    var pending: [Int: ResultsDocument] = [:]
    var next = range.lowerBound, nextToAdd = range.lowerBound
    await withTaskGroup(of: (Int, ResultsDocument).self) { group in
      func start() {
        let replication = next
        next += 1
        group.addTask { (replication, analyze(await simulator.run(replication: replication, threads: 1))) }
      }
      while next < range.upperBound, next - range.lowerBound < max(threads, 1) { start() }
      while let (replication, document) = await group.next() {
        if next < range.upperBound { start() }
        pending[replication] = document
        while let ready = pending.removeValue(forKey: nextToAdd) {
          add(ready)
          nextToAdd += 1
          progress(nextToAdd - range.lowerBound)
        }
      }
    }
  }

  /// The first replication's document with the calibration of them all:
  /// what the run writes. Every replication must have been added.
  public var document: ResultsDocument {
    precondition(added == replications && first != nil, "a run is complete after its last replication")
    var document = first!
    if replications > 1 {
      document.calibration = calibration.calibration
      document.calibration?.adoptionEnds = adoptionEnds
    }
    return document
  }

  /// The run's report, with the plan's expectations checked on it. Every replication must have been
  /// added.
  public func report() -> ReportDocument {
    let document = self.document
    return pipeline.report(document, expectations: ExpectationCheck.check(scenario, against: document))
  }

  /// The results.json the run writes, as text: what `bench perf --calibration`
  /// compares across thread counts.
  public func resultsJSON() -> String {
    document.json.rendered()
  }

  /// How many replications a run makes unless told: 200, enough to put the
  /// plan's right-ship rate within about ±7 points, or as many as fit
  /// 4 × 10⁸ device-days (at least 1), under ten seconds on two cores
  /// (upgrade.json's 50,000 devices over 90 days get 88, docs/performance.md).
  /// A function of the plan alone, so that the same scenario gives the same
  /// files on every machine.
  public static func defaultReplications(devices: Int, days: Int) -> Int {
    min(200, max(1, 400_000_000 / max(devices * max(days, 1), 1)))
  }
}
