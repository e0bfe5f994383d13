import Analysis
import AnalyticsTable
import ArgumentParser
import Foundation
import Report
import Results
import ScenarioFormat
import Simulation

extension Bench {
  /// Simulates a scenario and writes its results.
  public struct Run: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Simulate a scenario and write its results.",
      discussion: """
        Drives every device of the scenario through its app versions by Lab's rules, tests \
        the outcomes, and writes <out>/<scenario name>/report.md with its charts and \
        results.json. The same scenario and seed give the same files, byte for byte, \
        whatever the thread count.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Run this many shards at once (default: the number of cores).")
    var threads: Int?

    @Option(help: "Run the scenario this many times, each with a seed derived from the first.")
    var replications: Int = 1

    @Option(help: "The folder that receives <scenario name>/report.md and results.json.")
    var out: String = "reports"

    @Option(help: "Also write the first replication's analytics events to this CSV file.")
    var events: String?

    @Option(help: "Where --events also writes the devices' outcomes (default: next to it, <name>-outcomes.csv).")
    var outcomes: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    public init() {}

    public func validate() throws {
      if let threads, threads <= 0 { throw ValidationError("--threads must be greater than 0, e.g. --threads 2.") }
      if outcomes != nil, events == nil {
        throw ValidationError("--outcomes goes with --events: add --events events.csv.")
      }
      guard replications > 0 else {
        throw ValidationError("--replications must be greater than 0, e.g. --replications 200.")
      }
    }

    public func run() async throws {
      let (scenario, warnings) = try options.load()
      if !quiet {
        for warning in warnings { printError("warning: \(warning)") }
      }
      let simulator = Simulator(plan: SimulationPlan(scenario))
      let threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
      let progress = ProgressBar(total: scenario.devices * replications, enabled: !quiet)
      var tallies: [RunTally] = []
      var eventLog: [EventLog] = []
      for replication in 0..<replications {
        let done = replication * scenario.devices
        if replication == 0, events != nil {
          let plan = simulator.plan
          let (tally, logs) = await simulator.run(
            replication: 0, threads: threads, makeObserver: { EventLog(plan: plan) },
            progress: { progress.update(done + $0) })
          tallies.append(tally)
          eventLog = logs
        } else {
          tallies.append(await simulator.run(replication: replication, threads: threads) { progress.update(done + $0) })
        }
      }
      progress.finish()

      let analyzer = ExperimentAnalyzer(settings: scenario.analysis)
      let documents = tallies.map {
        analyzer.analyze(ResultsDocument(plan: simulator.plan, tally: $0, replications: replications))
      }
      var document = documents[0]
      if replications > 1 {
        document.calibration = CalibrationSummary.calibrate(documents, alpha: scenario.analysis.alpha)
      }
      let report = MarkdownReport.render(ReportInput(
        document: document, description: scenario.description, settings: scenario.analysis, versions: scenario.versions,
        source: "Simulated"))
      let outcomesPath = events.map { outcomes ?? Self.outcomesPath(besides: $0) }
      if let events, let outcomesPath {
        try AtomicFile.write(EventsTable.csv(eventLog.flatMap(\.rows)), to: URL(fileURLWithPath: events))
        try AtomicFile.write(
          OutcomesTable.csv(eventLog.flatMap(\.outcomes), metrics: scenario.metrics.map(\.name)),
          to: URL(fileURLWithPath: outcomesPath))
      }
      let reportURL = try ReportFolder(out: out, name: scenario.name).write(report, document: document)
      if !quiet {
        print("Simulated \(scenario.devices) devices over \(scenario.days) days"
          + (replications > 1 ? ", \(replications) replications" : "") + ".")
        print("Wrote \(reportURL.relativePath) and results.json")
        if let events, let outcomesPath {
          print("Wrote \(events) (\(eventLog.map(\.rows.count).reduce(0, +)) events) and \(outcomesPath)")
        }
      }
    }

    /// `events.csv` → `events-outcomes.csv`, in the same folder.
    static func outcomesPath(besides events: String) -> String {
      let url = URL(fileURLWithPath: events)
      let stem = url.pathExtension.lowercased() == "csv" ? url.deletingPathExtension().lastPathComponent : url.lastPathComponent
      let file = url.deletingLastPathComponent().appendingPathComponent("\(stem)-outcomes.csv")
      return events.contains("/") ? file.path : file.lastPathComponent
    }
  }
}
