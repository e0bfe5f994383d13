import Analysis
import Foundation
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
struct SimulatedRun {
  let scenario: Scenario
  let plan: SimulationPlan
  /// How many replications the run makes, which each document states.
  let replications: Int
  private var first: ResultsDocument?
  private var calibration: CalibrationSummary
  private var added = 0

  init(scenario: Scenario, plan: SimulationPlan, replications: Int) {
    self.scenario = scenario
    self.plan = plan
    self.replications = replications
    calibration = CalibrationSummary(alpha: scenario.analysis.alpha)
  }

  /// Analyses the next replication's tally, in replication order.
  mutating func add(_ tally: RunTally) {
    let document = ExperimentAnalyzer(settings: scenario.analysis)
      .analyze(ResultsDocument(plan: plan, tally: tally, replications: replications))
    if first == nil { first = document }
    if replications > 1 { calibration.add(document) }
    added += 1
  }

  /// Writes `<out>/<scenario name>/` (with report.html when `html`); returns
  /// where report.md is. Every replication must have been added.
  func write(out: String, html: Bool = false) throws -> URL {
    precondition(added == replications && first != nil, "a run writes its report after its last replication")
    var document = first!
    if replications > 1 { document.calibration = calibration.calibration }
    let report = MarkdownReport.render(ReportInput(
      document: document, description: scenario.description, settings: scenario.analysis, versions: scenario.versions,
      source: "Simulated"))
    return try ReportFolder(out: out, name: scenario.name, html: html).write(report, document: document)
  }

  /// What a run says when it is done: the population and where the report went.
  func summary(reportURL: URL) -> String {
    "Simulated \(scenario.devices) devices over \(scenario.days) days"
      + (replications > 1 ? ", \(replications) replications" : "") + ".\n"
      + "Wrote \(reportURL.relativePath) and results.json"
  }
}
