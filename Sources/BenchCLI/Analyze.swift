import AnalyticsTable
import ArgumentParser
import Foundation
import Pipeline
import Platforms
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
        needed), or, with --preset or --map, an analytics tool's own export (CSV or JSON Lines), \
        and optionally an outcomes CSV (id_for_vendor, metric, value, and time for events). Each \
        device counts once per experiment, under the first variant its exposures show; a device \
        shown several variants is contaminated. A device with no outcome for a metric has 0; \
        outcomes with a time count only at or after the device's first exposure. \
        The report goes to its own folder, <name>-analyze by default, and never replaces a \
        simulated run's report unless --force says so.
        """
    )

    @Argument(
      help: "The events table or export, e.g. events.csv or export.jsonl.",
      completion: .file(extensions: ["csv", "jsonl", "ndjson"]))
    var events: String

    @Option(help: ArgumentHelp(
      "The tool whose export the events file is: \(ExportPreset.allCases.map(\.rawValue).joined(separator: ", ")) (docs/analyze.md).",
      valueName: "tool"))
    var preset: String = ExportPreset.lab.rawValue

    @Option(
      name: .customLong("map"),
      help: ArgumentHelp("A JSON file that says where another tool's export keeps events, units, times and exposures.", valueName: "file"),
      completion: .file(extensions: ["json"]))
    var mapFile: String?

    @Option(
      name: .customLong("metric"),
      help: ArgumentHelp(
        "A metric from the export's own events: NAME=EVENT (a conversion) or NAME=EVENT:PROPERTY (the sum of PROPERTY); only events at or after a device's first exposure count.",
        valueName: "metric"))
    var eventMetrics: [String] = []

    @Option(
      name: .customLong("covariate"),
      help: ArgumentHelp(
        "A metric's pre-exposure covariate (CUPED): METRIC=EVENT or METRIC=EVENT:PROPERTY, summed over a device's events before its first exposure.",
        valueName: "covariate"))
    var covariates: [String] = []

    @Option(
      name: .customLong("ratio"),
      help: ArgumentHelp("A ratio metric, NAME=NUMERATOR/DENOMINATOR, of two metrics summed over the devices.", valueName: "ratio"))
    var ratios: [String] = []

    @Option(
      name: .customLong("quantiles"),
      help: ArgumentHelp("An amount's quantiles to compare, METRIC=0.5,0.9 (each 0.01 to 0.99).", valueName: "quantiles"))
    var quantiles: [String] = []

    @Option(
      name: .customLong("winsorize"),
      help: ArgumentHelp("An amount capped at the experiment's pooled percentile, METRIC=0.99 (0.5 to 0.999).", valueName: "winsorize"))
    var winsorize: [String] = []

    @Option(
      name: .customLong("split"),
      help: ArgumentHelp("An experiment's planned split, EXPERIMENT=A:1,B:1, for the sample ratio check without a scenario.", valueName: "split"))
    var splits: [String] = []

    @Option(
      help: "The outcomes table: id_for_vendor, metric, value (without it: exposures, sample ratio and contamination only).",
      completion: .file(extensions: ["csv"]))
    var outcomes: String?

    @Flag(help: "The outcomes table holds events, a row per purchase or conversion, summed per device and metric.")
    var outcomeEvents = false

    @Option(
      help: "The scenario the events come from, for baselines, weights, metric kinds and analysis settings.",
      completion: .file(extensions: ["json"]))
    var scenario: String?

    @OptionGroup var analysisOptions: AnalysisOptions

    @Option(help: "The report's name and folder (default: the scenario's name, or the events file's name, then -analyze).")
    var name: String?

    @Flag(help: "Replace a folder that holds another command's report, such as a simulated run's.")
    var force = false

    @Option(help: "The folder that receives <name>/report.md and results.json.", completion: .directory)
    var out: String = "reports"

    @Option(name: .customLong("column"), help: "A column's name in the tables, as ROLE=NAME, e.g. id_for_vendor=user_id.")
    var columns: [String] = []

    @Option(name: .customLong("baseline"), help: "An experiment's baseline, as EXPERIMENT=VARIANT.")
    var baselines: [String] = []

    @Option(
      name: .customLong("exclude-variant"),
      help: "An experiment's exposures that are no arm of it, as EXPERIMENT=VARIANT (a holdout's, a tool's own), left out and counted; repeat for several.")
    var excludedVariants: [String] = []

    @Flag(
      name: .customLong("fold-event-case"),
      help: "Count every spelling of a --metric's event (Subscription_Started with subscription_started): names compare without case, spaces, dashes or underscores.")
    var foldEventCase = false

    @Option(name: .customLong("kind"), help: "A metric's kind, as METRIC=conversion or METRIC=continuous.")
    var kinds: [String] = []

    @Option(help: ArgumentHelp(
      "How times are written: \(EventTime.Format.allCases.map(\.rawValue).joined(separator: ", ")) (default: day for the Lab table, the tool's own for a preset).",
      valueName: "format"))
    var time: String?

    @Option(help: "The time zone whose calendar days count, e.g. Europe/Berlin.")
    var timezone: String = "UTC"

    @Option(help: ArgumentHelp("Day 0, as YYYY-MM-DD (default: the first event's day).", valueName: "date"))
    var start: String?

    @OptionGroup var formats: HTMLFlag

    @Flag(help: "Leave malformed rows out, and say how many, instead of failing.")
    var skipMalformed = false

    @OptionGroup var output: QuietFlag

    public init() {}

    public func validate() throws {
      for (option, values) in [("--column", columns), ("--baseline", baselines), ("--exclude-variant", excludedVariants), ("--kind", kinds)] {
        for value in values where Self.pair(value) == nil {
          throw ValidationError("\(option) takes NAME=VALUE, not '\(value)'.")
        }
      }
      for kind in kinds where !["conversion", "continuous"].contains(Self.pair(kind)!.1) {
        throw ValidationError("--kind takes METRIC=conversion or METRIC=continuous, not '\(kind)'.")
      }
      if let name, name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
        throw ValidationError("--name must be letters, digits, '-' or '_' (it names the report's folder), not '\(name)'.")
      }
      let mapping = try exportMapping()
      _ = try eventTime(mapping: mapping)
      if mapping == nil, !eventMetrics.isEmpty {
        throw ValidationError(
          "--metric reads the export's own events; the Lab table holds none: pass --preset or --map for an export, or --outcomes for the Lab table's outcomes.")
      }
      if mapping != nil, !columns.isEmpty {
        throw ValidationError("--column renames the Lab table's columns; an export's fields are described with --map FILE.json.")
      }
      _ = try parsedEventMetrics()
      _ = try parsedSplits()
      _ = try parsedDerivedMetrics()
      if mapping == nil, !covariates.isEmpty {
        throw ValidationError(
          "--covariate sums the export's own events before each device's first exposure: pass --preset or --map for an export.")
      }
      if foldEventCase, mapping == nil {
        throw ValidationError("--fold-event-case matches an export's --metric events; the Lab table holds none: pass --preset or --map.")
      }
      if outcomeEvents, outcomes == nil {
        throw ValidationError("--outcome-events goes with --outcomes: add --outcomes outcomes.csv.")
      }
    }

    public func run() throws {
      var options = EventsAnalysis.Options()
      options.columns = Dictionary(columns.map { Self.pair($0)! }, uniquingKeysWith: { $1 })
      options.baselines = Dictionary(baselines.map { Self.pair($0)! }, uniquingKeysWith: { $1 })
      for (experiment, variant) in excludedVariants.map({ Self.pair($0)! }) {
        options.excludedVariants[experiment, default: []].insert(variant)
      }
      options.conversionMetrics = Dictionary(kinds.map { Self.pair($0)! }.map { ($0, $1 == "conversion") }, uniquingKeysWith: { $1 })
      options.skipMalformed = skipMalformed
      options.foldEventCase = foldEventCase
      options.outcomesAreEvents = outcomeEvents
      options.mapping = try exportMapping()
      options.time = try eventTime(mapping: options.mapping)
      options.eventMetrics = try parsedEventMetrics()
      options.covariates = try parsedEventMetrics(covariates, option: "--covariate")
      options.splits = try parsedSplits()
      options.derived = try parsedDerivedMetrics()
      if let scenario {
        let (loaded, _) = try Scenario.load(path: scenario)
        options.scenario = loaded
      }
      let name = name ?? (options.scenario?.name ?? URL(fileURLWithPath: events).deletingPathExtension().lastPathComponent) + "-analyze"
      let folder = ReportFolder(out: out, name: name, html: formats.html)
      if !force { try Self.requireOwnReport(folder.url) }
      let analysis = try EventsAnalysis(events: events, outcomes: outcomes, name: name, options: options)
      let settings = try analysisOptions.applied(
        to: options.scenario?.analysis ?? .standard,
        metrics: analysis.document.experiments.first?.variants.first?.metrics.map(\.name) ?? [])
      let pipeline = AnalysisPipeline(
        settings: settings, description: options.scenario?.description ?? "",
        source: "Analysed \(URL(fileURLWithPath: events).lastPathComponent)")
      let document = pipeline.analyze(analysis.document)
      let reportURL = try folder.write(pipeline.report(document), document: document)
      if !output.quiet {
        let leftOut = Self.describe(analysis.leftOut)
        if !leftOut.isEmpty { printError("Left out \(leftOut).") }
        for spelling in analysis.otherSpellings {
          func rows(_ count: Int) -> String { "\(CountText.grouped(count)) row\(count == 1 ? "" : "s")" }
          let others = spelling.others.map { "'\($0.name)' (\(rows($0.rows)))" }.joined(separator: ", ")
          printError(
            "warning: \(spelling.option) counts '\(spelling.event)' (\(rows(spelling.rows))) and not \(others), "
              + "the same name spelled otherwise: pass --fold-event-case to count every spelling.")
        }
        for experiment in document.experiments {
          guard let choice = analysis.baselines[experiment.name], choice.reason == .firstInFile else { continue }
          printError(
            "warning: \(experiment.name)'s baseline is \(choice.variant), the first variant in the file: no --baseline, "
              + "scenario or control's name (control, baseline, off, default, original) settles it; a file sorted another way "
              + "would make another variant the baseline: give --baseline \(experiment.name)=VARIANT.")
        }
        if let first = analysis.skippedRows.first {
          let count = analysis.skippedRows.count
          printError("Skipped \(count) malformed row\(count == 1 ? "" : "s"); the first, \(first.path) line \(first.line): \(first.reason).")
        }
        let experiments = document.experiments.count
        print("Analysed \(NumberFormat.count(document.devices)) devices in \(experiments) experiment\(experiments == 1 ? "" : "s").")
        print("Wrote \(reportURL.relativePath)" + (formats.html ? ", report.html" : "") + " and results.json")
      }
    }

    /// The time options read together, or the one that is wrong.
    func eventTime(mapping: ExportMapping?) throws -> EventTime {
      // The format and the zone first, then whether --start goes with them, then the date.
      let undated = try ExportOptionReading.eventTime(time: time, format: mapping?.timeFormat ?? .day, timezone: timezone, start: nil)
      if start != nil, undated.format == .day {
        throw ValidationError("--start goes with timestamps: add --time iso8601, unix, unix-ms or unix-us.")
      }
      return try ExportOptionReading.eventTime(time: time, format: undated.format, timezone: timezone, start: start)
    }

    /// Refuses a folder that holds anything but an earlier analysis: a
    /// simulated run's report (its results.json has a seed) or files the
    /// bench did not write.
    static func requireOwnReport(_ folder: URL) throws {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      guard !files.isEmpty else { return }
      let results = folder.appendingPathComponent("results.json")
      let seed = (try? Data(contentsOf: results))
        .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        .map { $0["seed"] }
      guard case .some(.some(let value)) = seed, value is NSNull else {
        throw BenchError.foreignReport(
          path: folder.path, holder: seed == nil ? "files the analysis did not write" : "a simulated run's report")
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
