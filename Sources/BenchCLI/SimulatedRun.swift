import Analysis
import Foundation
import Report
import Results
import ScenarioFormat
import Simulation

/// A simulation's tallies, one per replication, turned into the report folder.
///
/// A one-machine run and a merge of shards both end here, so the same tallies
/// give the same report.md and results.json, byte for byte.
struct SimulatedRun {
  let scenario: Scenario
  let plan: SimulationPlan
  let tallies: [RunTally]

  /// Analyses the tallies and writes `<out>/<scenario name>/` (with report.html
  /// when `html`); returns where report.md is.
  func write(out: String, html: Bool = false) throws -> URL {
    let analyzer = ExperimentAnalyzer(settings: scenario.analysis)
    let documents = tallies.map {
      analyzer.analyze(ResultsDocument(plan: plan, tally: $0, replications: tallies.count))
    }
    var document = documents[0]
    if tallies.count > 1 {
      document.calibration = CalibrationSummary.calibrate(documents, alpha: scenario.analysis.alpha)
    }
    let report = MarkdownReport.render(ReportInput(
      document: document, description: scenario.description, settings: scenario.analysis, versions: scenario.versions,
      source: "Simulated"))
    return try ReportFolder(out: out, name: scenario.name, html: html).write(report, document: document)
  }

  /// What a run says when it is done: the population and where the report went.
  func summary(reportURL: URL) -> String {
    "Simulated \(scenario.devices) devices over \(scenario.days) days"
      + (tallies.count > 1 ? ", \(tallies.count) replications" : "") + ".\n"
      + "Wrote \(reportURL.relativePath) and results.json"
  }
}
