import ArgumentParser
import Foundation
import Pipeline
import Sharding

extension Bench {
  /// Puts a sharded run back together.
  public struct Merge: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Merge the parts of a sharded run into its report.",
      discussion: """
        Takes the part files that `bench run SCENARIO --shard K/N` wrote, one per shard, \
        checks that they are parts of one run (same scenario file, seed, devices, \
        replications and bench) covering shards 0 to N-1 exactly once, and writes \
        <out>/<scenario name>/report.md and results.json: the same bytes a run of the \
        scenario on one machine writes. A part cut short or altered is refused by its checksum.
        """
    )

    @Argument(help: ArgumentHelp("The part files, e.g. parts/*.part.", valueName: "part"), completion: .file(extensions: ["part"]))
    var parts: [String] = []

    @Option(
      help: ArgumentHelp("The folder that receives <scenario name>/report.md and results.json.", valueName: "folder"),
      completion: .directory)
    var out: String = "reports"

    @OptionGroup var analysis: AnalysisOptions

    @OptionGroup var formats: HTMLFlag

    @OptionGroup var output: QuietFlag

    public init() {}

    public func run() async throws {
      var files: [(path: String, bytes: [UInt8])] = []
      for path in parts {
        guard let data = FileManager.default.contents(atPath: path) else { throw ShardError.unreadable(path: path) }
        files.append((path, Array(data)))
      }
      let merged = try ShardMerge(parts: files)
      var scenario = merged.scenario
      scenario.analysis = try analysis.applied(to: scenario.analysis, metrics: scenario.metrics.map(\.name))
      var run = SimulatedRun(scenario: scenario, plan: merged.plan, replications: merged.tallies.count)
      for tally in merged.tallies { run.add(tally) }
      let reportURL = try run.write(out: out, html: formats.html)
      if !output.quiet {
        print("Merged \(files.count) part\(files.count == 1 ? "" : "s").")
        print(run.summary(reportURL: reportURL, html: formats.html))
      }
    }
  }
}
