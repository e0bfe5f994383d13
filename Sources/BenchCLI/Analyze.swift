import Analysis
import AnalyticsTable
import ArgumentParser
import Foundation
import Report
import Results
import ScenarioFormat

extension Bench {
  /// Runs the bench's analysis on a real analytics events table.
  public struct Analyze: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Analyse a real analytics events table and write the same report.",
      discussion: """
        Reads the Lab analytics table as CSV (columns value, key, variant, experiment, source, \
        reason, id_for_vendor, day; only variant, experiment, reason, id_for_vendor and day are \
        needed) and an outcomes CSV (id_for_vendor, metric, value). Each device counts once per \
        experiment, under the first variant its "displayed" events show; a device shown several \
        variants is contaminated. A device with no outcome row for a metric has 0.
        """
    )

    @Argument(help: "The events table, e.g. events.csv.")
    var events: String

    @Option(help: "The outcomes table: id_for_vendor, metric, value.")
    var outcomes: String

    @Option(help: "The scenario the events come from, for baselines, weights, metric kinds and analysis settings.")
    var scenario: String?

    @Option(help: "The report's name and folder (default: the scenario's name, or the events file's name).")
    var name: String?

    @Option(help: "The folder that receives <name>/report.md and results.json.")
    var out: String = "reports"

    @Option(name: .customLong("column"), help: "A column's name in the tables, as ROLE=NAME, e.g. id_for_vendor=user_id.")
    var columns: [String] = []

    @Option(name: .customLong("baseline"), help: "An experiment's baseline, as EXPERIMENT=VARIANT.")
    var baselines: [String] = []

    @Option(name: .customLong("kind"), help: "A metric's kind, as METRIC=conversion or METRIC=continuous.")
    var kinds: [String] = []

    @Flag(help: "Leave malformed rows out, and say how many, instead of failing.")
    var skipMalformed = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    public init() {}

    public func validate() throws {
      for (option, values) in [("--column", columns), ("--baseline", baselines), ("--kind", kinds)] {
        for value in values where Self.pair(value) == nil {
          throw ValidationError("\(option) takes NAME=VALUE, not '\(value)'.")
        }
      }
      for kind in kinds where !["conversion", "continuous"].contains(Self.pair(kind)!.1) {
        throw ValidationError("--kind takes METRIC=conversion or METRIC=continuous, not '\(kind)'.")
      }
    }

    public func run() throws {
      var options = EventsAnalysis.Options()
      options.columns = Dictionary(columns.map { Self.pair($0)! }, uniquingKeysWith: { $1 })
      options.baselines = Dictionary(baselines.map { Self.pair($0)! }, uniquingKeysWith: { $1 })
      options.conversionMetrics = Dictionary(kinds.map { Self.pair($0)! }.map { ($0, $1 == "conversion") }, uniquingKeysWith: { $1 })
      options.skipMalformed = skipMalformed
      if let scenario {
        let (loaded, _) = try Scenario.load(path: scenario)
        options.scenario = loaded
      }
      let name = name ?? options.scenario?.name ?? URL(fileURLWithPath: events).deletingPathExtension().lastPathComponent
      let analysis = try EventsAnalysis(events: events, outcomes: outcomes, name: name, options: options)
      let settings = options.scenario?.analysis ?? .standard
      let document = ExperimentAnalyzer(settings: settings).analyze(analysis.document)
      let report = MarkdownReport.render(ReportInput(
        document: document, description: options.scenario?.description ?? "",
        settings: settings, versions: [], source: "Analysed \(URL(fileURLWithPath: events).lastPathComponent)"))
      let reportURL = try ReportFolder(out: out, name: name).write(report, document: document)
      if !quiet {
        if let first = analysis.skippedRows.first {
          let count = analysis.skippedRows.count
          printError("Skipped \(count) malformed row\(count == 1 ? "" : "s"); the first, \(first.path) line \(first.line): \(first.reason).")
        }
        print("Analysed \(document.devices) devices in \(document.experiments.count) experiments.")
        print("Wrote \(reportURL.relativePath) and results.json")
      }
    }

    /// `NAME=VALUE` split at the first `=`, both sides non-empty.
    static func pair(_ text: String) -> (String, String)? {
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
        return nil
      }
      return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
  }
}
