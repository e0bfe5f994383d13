import Analysis
import ArgumentParser
import Foundation
import Results
import ScenarioFormat
import Simulation

extension Bench {
  /// Simulates a scenario and writes its results.
  public struct Run: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Simulate a scenario and write its results.",
      discussion: """
        Drives every device of the scenario through its app versions by Lab's rules and \
        writes <out>/<scenario name>/results.json. The same scenario and seed give the same \
        file, byte for byte, whatever the thread count.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @Option(help: "Run this many shards at once (default: the number of cores).")
    var threads: Int?

    @Option(help: "Run the scenario this many times, each with a seed derived from the first.")
    var replications: Int = 1

    @Option(help: "The folder that receives <scenario name>/results.json.")
    var out: String = "reports"

    @Option(help: "Also write the first replication's analytics events to this CSV file.")
    var events: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    public init() {}

    public func validate() throws {
      if let threads, threads <= 0 { throw ValidationError("--threads must be greater than 0, e.g. --threads 2.") }
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
      var eventRows: [EventLog.Row] = []
      for replication in 0..<replications {
        let done = replication * scenario.devices
        if replication == 0, events != nil {
          let plan = simulator.plan
          let (tally, logs) = await simulator.run(
            replication: 0, threads: threads, makeObserver: { EventLog(plan: plan) },
            progress: { progress.update(done + $0) })
          tallies.append(tally)
          eventRows = logs.flatMap(\.rows)
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
      let folder = URL(fileURLWithPath: out).appendingPathComponent(scenario.name)
      let resultsURL = folder.appendingPathComponent("results.json")
      try AtomicFile.write(document.json.rendered(), to: resultsURL)
      if let events {
        try AtomicFile.write(EventsTable.csv(eventRows), to: URL(fileURLWithPath: events))
      }
      if !quiet {
        print("Simulated \(scenario.devices) devices over \(scenario.days) days"
          + (replications > 1 ? ", \(replications) replications" : "") + ".")
        print("Wrote \(resultsURL.relativePath)")
        if let events { print("Wrote \(events) (\(eventRows.count) events)") }
      }
    }
  }
}
