import AnalyticsTable
import ArgumentParser
import AtomicOutput
import Foundation
import Lab
import Results
import ScenarioFormat
import WorldFit

extension Bench {
  /// `bench fit`: the team's world fitted from its own export, as a scenario.
  public struct Fit: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Fit the world a plan runs in from a team's own analytics export.",
      discussion: """
        Reads an analytics tool's export (--preset or --map, as bench analyze does) and estimates \
        the devices installed before the export began and the new ones of each day, each \
        release's adoption, each platform's daily activity, sessions and inactivity hazard, and \
        the weekdays; writes them as a scenario with no experiments (--out) that bench runs as \
        it is, and beside it a fit report comparing what the export shows with what the fitted \
        world expects. docs/world.md says how, and what the fit cannot see.
        """
    )

    @Argument(help: "The export file.", completion: .file())
    var export: String

    @Option(help: ArgumentHelp(
      "The tool whose export this is: \(ExportPreset.allCases.filter { $0 != .lab }.map(\.rawValue).joined(separator: ", ")).",
      valueName: "tool"))
    var preset: String?

    @Option(name: .customLong("map"), help: ArgumentHelp("A JSON file describing another tool's export (docs/analyze.md).", valueName: "file"))
    var mapFile: String?

    @Option(help: "The event each launch sends (default: the preset's, e.g. Amplitude's session_start).")
    var sessionEvent: String?

    @Option(
      name: .customLong("metric"),
      help: ArgumentHelp(
        "A metric whose baselines per platform to fit, as bench analyze takes it: NAME=EVENT (a conversion: the share of devices with the event) or NAME=EVENT:PROPERTY (an amount: the mean of each device's sum); repeatable.",
        valueName: "name=event[:property]"))
    var eventMetrics: [String] = []

    @Option(help: ArgumentHelp("How the export writes times: day, iso8601, unix, unix-ms or unix-us (default: the preset's).", valueName: "format"))
    var time: String?

    @Option(help: "The time zone whose calendar days count, e.g. Europe/Berlin.")
    var timezone: String = "UTC"

    @Option(help: ArgumentHelp("Day 0, as YYYY-MM-DD (default: the first event's day).", valueName: "date"))
    var start: String?

    @Flag(help: "Leave malformed rows out, and say how many, instead of failing.")
    var skipMalformed = false

    @Option(help: ArgumentHelp("The scenario file to write; the fit report goes beside it as <name>-fit.md.", valueName: "world.json"))
    var out: String

    @Option(help: "The fitted scenario's name (default: the file name of --out).")
    var name: String?

    @OptionGroup var output: QuietFlag

    public init() {}

    public func validate() throws {
      guard (preset == nil) != (mapFile == nil) else {
        throw ValidationError("bench fit reads a tool's export: give --preset amplitude (or another tool), or --map FILE.json.")
      }
      _ = try mapping()
      _ = try eventTime()
      guard out.lowercased().hasSuffix(".json") else {
        throw ValidationError("--out names the scenario file to write, ending in .json, not '\(out)'.")
      }
      _ = try scenarioName()
      _ = try metrics()
    }

    /// `--metric`, each named as a scenario names a metric.
    private func metrics() throws -> [EventsAnalysis.EventMetric] {
      let metrics = try ExportOptionReading.eventMetrics(eventMetrics, option: "--metric")
      guard metrics.count <= ScenarioLimits.metrics.upperBound else {
        throw ValidationError("--metric is given \(metrics.count) times; a scenario holds at most \(ScenarioLimits.metrics.upperBound) metrics.")
      }
      for metric in metrics where !NamingConvention.lowerCamelCase.accepts(metric.name) {
        throw ValidationError("--metric \(metric.name): a metric's name is lowerCamelCase, as a scenario's is, e.g. purchased or revenue.")
      }
      return metrics
    }

    public func run() throws {
      let mapping = try mapping()
      let time = try eventTime()
      let metrics = try metrics()
      let read = try ExportActivity(
        path: export, mapping: mapping, time: time, sessionEvent: sessionEvent, metrics: metrics, skipMalformed: skipMalformed,
        dayLimit: ScenarioLimits.days.upperBound)
      let complete = FittedWorld.completeDays(active: read.activeByDay)
      let activity = complete.count == read.days ? read : read.keeping(days: complete)
      guard activity.days >= 7 else {
        throw ValidationError("\(export): spans \(activity.days) day\(activity.days == 1 ? "" : "s"); the fit needs at least 7 to tell activity from installs.")
      }
      let startDay = (time.start ?? read.firstCalendarDay) + complete.lowerBound
      let world = FittedWorld(activity, startDay: startDay, metrics: metrics)
      for (index, (metric, fitted)) in zip(metrics, world.metrics).enumerated() {
        let named = "--metric \(metric.name)=\(metric.event)" + (metric.property.map { ":\($0)" } ?? "")
        guard activity.devices.contains(where: { $0.metricEvents[index] > 0 }) else {
          throw ValidationError("\(named): no row of the export is a '\(metric.event)' event; check the event's name (names are case-sensitive).")
        }
        guard fitted.isConversion || fitted.baseline > 0 else {
          throw ValidationError(
            "\(named): the devices' amounts average \(FitReport.number(fitted.baseline)); a scenario's amount is positive "
              + "(refunds are a metric of their own).")
        }
      }
      let name = try scenarioName()
      let json = world.scenario(name: name, source: URL(fileURLWithPath: export).lastPathComponent).rendered()
      // The fit writes only what the bench reads back as it is.
      do {
        _ = try Scenario.parse(Data(json.utf8))
      } catch {
        throw ValidationError("the fitted world is not a valid scenario (\(error)): please report it with the export's shape")
      }
      let base = URL(fileURLWithPath: out).deletingPathExtension()
      let report = FitReport(
        world: world, activity: activity, export: export, startDay: startDay,
        partialDays: FitReport.PartialDays(read: read, complete: complete, startDay: startDay),
        name: base.lastPathComponent + "-fit")
      let reportPath = base.path + "-fit.md"
      let charts = report.charts.map { (path: base.deletingLastPathComponent().appendingPathComponent($0.file).path, chart: $0.chart) }
      for path in [out, reportPath] + charts.map(\.path) { try OutputTarget.requireFileOrNothing(path, option: "--out") }
      try AtomicFile.write(json, to: URL(fileURLWithPath: out))
      for chart in charts { try AtomicFile.write(chart.chart.svg, to: URL(fileURLWithPath: chart.path)) }
      try AtomicFile.write(report.markdown, to: URL(fileURLWithPath: reportPath))
      if !output.quiet {
        if !activity.hasSessions {
          printError("warning: no row is a session event (\(sessionEvent ?? mapping.sessionEvent ?? "none named")): each active day counts as one session; name the event each launch sends with --session-event NAME")
        }
        if !activity.skipped.isEmpty { printError("warning: left out \(activity.skipped.count) malformed rows (first at line \(activity.skipped[0].line): \(activity.skipped[0].reason))") }
        print("Fitted \(CountText.grouped(activity.devices.count)) devices over \(activity.days) days: "
          + "\(world.segments.count) segment\(world.segments.count == 1 ? "" : "s"), \(max(world.releases.count, 1)) version\(world.releases.count == 1 ? "" : "s").")
        print("Wrote \(out), \(reportPath) and its \(charts.count) charts")
      }
    }

    private func mapping() throws -> ExportMapping {
      if let mapFile { return try ExportOptionReading.mapping(file: mapFile) }
      let tools = ExportPreset.allCases.filter { $0 != .lab }
      guard let preset, let chosen = ExportPreset(rawValue: preset), let mapping = chosen.mapping else {
        throw ValidationError(
          "--preset takes \(tools.map(\.rawValue).joined(separator: ", ")), not '\(preset ?? "")'; for another tool describe its export with --map FILE.json.")
      }
      return mapping
    }

    private func eventTime() throws -> EventTime {
      try ExportOptionReading.eventTime(
        time: time, format: (try? mapping())?.timeFormat ?? .iso8601, timezone: timezone, start: start)
    }

    /// --name, or --out's file name, as a scenario name: letters, digits, - and _.
    private func scenarioName() throws -> String {
      let text = name ?? URL(fileURLWithPath: out).deletingPathExtension().lastPathComponent
      let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
      guard !text.isEmpty, text.unicodeScalars.allSatisfy(allowed.contains) else {
        throw ValidationError("--name must be letters, digits, - and _ (it names the report's folder), not '\(text)'.")
      }
      return text
    }
  }
}
