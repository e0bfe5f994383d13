import Analysis
import AnalyticsTable
import Foundation
import Report
import Results
import ScenarioFormat
import Simulation

/// An input reader under fuzzing: it takes any bytes and must answer with a
/// result or a clean error, never a trap, through the whole pipeline a user
/// runs (simulation or table reading, analysis, report).
enum FuzzTarget: String, CaseIterable {
  /// A scenario file: read it, and when it is valid, simulate a few devices,
  /// analyse and render the report.
  case scenario
  /// An events table and an outcomes table, split at the first NUL byte:
  /// read both, analyse and render the report.
  case table

  func run(_ input: Data) {
    switch self {
    case .scenario: Self.scenario(input)
    case .table: Self.table(input)
    }
  }

  /// Devices simulated per valid scenario: enough to reach the analysis,
  /// few enough to keep thousands of inputs a second.
  private static let devices = 4

  private static func scenario(_ input: Data) {
    guard var scenario = try? Scenario.parse(input).scenario else { return }
    scenario.devices = devices
    let simulator = Simulator(plan: SimulationPlan(scenario))
    var tally = RunTally(plan: simulator.plan)
    for device in 0..<devices {
      var observer = NoObserver()
      tally.merge(simulator.replay(device: device, observer: &observer))
    }
    let document = ExperimentAnalyzer(settings: scenario.analysis).analyze(ResultsDocument(plan: simulator.plan, tally: tally))
    _ = MarkdownReport.render(ReportInput(
      document: document, description: scenario.description, settings: scenario.analysis, versions: scenario.versions,
      source: "Fuzzed"))
    _ = document.json.rendered()
  }

  private static func table(_ input: Data) {
    let parts = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let events = folder.appendingPathComponent("events.csv"), outcomes = folder.appendingPathComponent("outcomes.csv")
    guard (try? Data(parts[0]).write(to: events)) != nil,
      (try? Data(parts.count > 1 ? parts[1] : Data("id_for_vendor,metric,value\n".utf8)).write(to: outcomes)) != nil
    else { return }
    for skipMalformed in [false, true] {
      var options = EventsAnalysis.Options()
      options.skipMalformed = skipMalformed
      guard let analysis = try? EventsAnalysis(events: events.path, outcomes: outcomes.path, name: "fuzz", options: options) else {
        continue
      }
      let document = ExperimentAnalyzer(settings: .standard).analyze(analysis.document)
      _ = MarkdownReport.render(ReportInput(
        document: document, description: "", settings: .standard, versions: [], source: "Fuzzed"))
      _ = document.json.rendered()
    }
  }
}
