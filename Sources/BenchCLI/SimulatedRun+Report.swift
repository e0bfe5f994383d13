import Foundation
import Pipeline
import Report

extension SimulatedRun {
  /// Writes `<out>/<scenario name>/` (with report.html when `html`); returns
  /// where report.md is. Every replication must have been added.
  func write(out: String, html: Bool = false) throws -> URL {
    try ReportFolder(out: out, name: scenario.name, html: html).write(report(), document: document)
  }

  /// What a run says when it is done: the population and where the report went.
  func summary(reportURL: URL, html: Bool) -> String {
    "Simulated \(NumberFormat.count(scenario.devices)) devices over \(NumberFormat.count(scenario.days)) days"
      + (replications > 1 ? ", \(NumberFormat.count(replications)) replications" : "") + ".\n"
      + "Wrote \(reportURL.relativePath)" + (html ? ", report.html" : "") + " and results.json"
  }
}
