import AnalyticsTable
import ArgumentParser
import AtomicOutput
import Foundation
import Pipeline
import Results
import ScenarioFormat
import Sharding
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
        whatever the thread count. With --shard K/N it simulates only the Kth of N equal \
        pieces of the run and writes <out>/<scenario name>.shard-K-of-N.part; `bench merge` \
        turns the N parts into the same files a run on one machine writes.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @OptionGroup var analysis: AnalysisOptions

    @Option(help: "Simulate on this many threads at once (default: the number of cores).")
    var threads: Int?

    @Option(
      help: ArgumentHelp(
        "Run the scenario this many times, each with a seed derived from the first (default: 200, fewer for a plan "
          + "of more than 2 million device-days; 1 for a single draw)."))
    var replications: Int?

    @Option(
      help: ArgumentHelp(
        "The folder that receives <scenario name>/report.md and results.json (default: reports), "
          + "or with --shard the part file (default: parts).",
        valueName: "folder"),
      completion: .directory)
    var out: String?

    @Option(help: ArgumentHelp(
      "Simulate only shard K of N (0 ≤ K < N) and write its part for `bench merge`.", valueName: "K/N"))
    var shard: String?

    @Option(help: "Also write the first replication's analytics events to this CSV file.", completion: .file(extensions: ["csv"]))
    var events: String?

    @Option(
      help: "Where --events also writes the devices' outcomes (default: next to it, <name>-outcomes.csv).",
      completion: .file(extensions: ["csv"]))
    var outcomes: String?

    @Option(
      help: ArgumentHelp(
        "Write --events as this tool exports them: amplitude, mixpanel, segment, statsig or firebase (sessions, exposures "
          + "and outcomes as events; docs/world.md).", valueName: "tool"))
    var eventsShape: String?

    @Option(help: ArgumentHelp(
      "With --events-shape, the date of day 0 (default: the Monday 2026-01-05, or the scenario's first weekday after it).",
      valueName: "YYYY-MM-DD"))
    var eventsStart: String?

    @Flag(
      name: .customLong("world-ends"),
      help: ArgumentHelp(
        "Run the replications twice more, with every adoption curve at the slowest and at the fastest end of its points' "
          + "intervals (the 'low' and 'high' bench fit writes), and say in the plan's section how far each decision "
          + "moves (docs/world.md)."))
    var worldEnds = false

    @OptionGroup var formats: HTMLFlag

    @OptionGroup var largeRun: LargeRunFlag

    @OptionGroup var output: QuietFlag

    public init() {}

    public func validate() throws {
      try RunLimits.check(threads: threads)
      if outcomes != nil, events == nil {
        throw ValidationError("--outcomes goes with --events: add --events events.csv.")
      }
      if eventsShape != nil || eventsStart != nil {
        guard events != nil else {
          throw ValidationError("--events-shape and --events-start go with --events: add --events events.jsonl.")
        }
        if outcomes != nil {
          throw ValidationError("--outcomes goes with the Lab table: a tool's shape writes outcomes as events in --events.")
        }
        _ = try shapedMapping()
        if let eventsStart, EventTime.parseDate(eventsStart) == nil {
          throw ValidationError("--events-start takes a date as YYYY-MM-DD, not '\(eventsStart)'.")
        }
        if eventsStart != nil, eventsShape == nil {
          throw ValidationError("--events-start goes with --events-shape: the Lab table counts days from 0.")
        }
      }
      if let replications { try RunLimits.check(replications: replications) }
      if let shard {
        do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.description) }
        if analysis.alpha != nil || analysis.mde != nil || analysis.power != nil || !analysis.successMetrics.isEmpty
          || !analysis.guardrails.isEmpty
        {
          throw ValidationError(
            "--alpha, --mde, --power, --success-metric and --guardrail set the analysis, which `bench merge` runs on "
              + "the parts: give them to bench merge.")
        }
        if events != nil {
          throw ValidationError(
            "--events cannot go with --shard: a shard simulates only some devices; write events with a run without --shard.")
        }
        if worldEnds {
          throw ValidationError(
            "--world-ends cannot go with --shard: it runs the plan's replications again at each end; run it on one machine.")
        }
      }
    }

    public func run() async throws {
      var (scenario, warnings, file) = try options.loadFile()
      scenario.analysis = try analysis.applied(to: scenario.analysis, metrics: scenario.metrics.map(\.name))
      if !output.quiet {
        for warning in warnings { printError("warning: \(warning)") }
      }
      let simulator = Simulator(plan: SimulationPlan(scenario))
      let threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
      let replications = replications ?? SimulatedRun.defaultReplications(devices: scenario.devices, days: scenario.days)
      if let shard {
        try await runShard(try Shard(parsing: shard), of: simulator, file: file, threads: threads, replications: replications)
        return
      }
      if worldEnds {
        guard scenario.hasAdoptionIntervals else {
          throw ValidationError(
            "--world-ends runs the plan at the ends of its adoption curves' intervals, and \(scenario.name)'s curves give "
              + "none: give each point 'low' and 'high' (bench fit writes them), or leave out --world-ends.")
        }
        guard replications >= 2 else {
          throw ValidationError("--world-ends compares decision rates over replications: give --replications 2 or more.")
        }
      }
      // The ends run every replication twice more.
      let runs = worldEnds ? 1 + AdoptionEnd.allCases.count : 1
      try RunLimits.check(
        simulator.plan, devices: scenario.devices, replications: replications * runs, threads: threads,
        allowed: largeRun.allowLargeRun)
      RunLimits.adviseOnTheBuild(
        simulator.plan, devices: scenario.devices, replications: replications * runs, threads: threads, quiet: output.quiet)
      let progress = ProgressBar(devices: scenario.devices, replications: replications * runs, enabled: !output.quiet)
      var run = SimulatedRun(scenario: scenario, plan: simulator.plan, replications: replications)
      if let events, eventsShape == nil, outcomes == nil, OutputTarget.isDeviceOrPipe(events) {
        throw ValidationError(
          "--events \(events) is a device or a pipe, which the rows are written through; the outcomes table goes "
            + "beside a file only: give --outcomes FILE too.")
      }
      let outcomesPath = eventsShape == nil ? events.map { outcomes ?? Self.outcomesPath(besides: $0) } : nil
      let folder = ReportFolder(out: out ?? "reports", name: scenario.name)
      for (option, path) in [("--events", events), ("--outcomes", outcomesPath)] {
        guard let path, folder.contains(path) else { continue }
        throw ValidationError(
          "\(option) \(path) is inside the report's folder \(folder.url.relativePath), which the run replaces whole: "
            + "write it outside, e.g. \(option) \(scenario.name)-\(URL(fileURLWithPath: path).lastPathComponent).")
      }
      var eventCount = 0
      var simulated = 0
      if let events, let mapping = try shapedMapping() {
        let start = try eventsStart.map { try Self.date($0) } ?? Self.defaultStart(firstWeekday: scenario.population.firstWeekday)
        do {
          let export = try await EventsExport.runShaped(
            simulator, threads: threads, events: events, mapping: mapping, startDay: start) { progress.update($0) }
          run.add(export.tally)
          eventCount = export.events
          simulated = 1
        } catch {
          throw BenchError.unwritableFolder(option: "--events", path: error.path, reason: error.reason)
        }
      } else if let events, let outcomesPath {
        let export: (tally: RunTally, events: Int, outcomes: Int)
        do {
          export = try await EventsExport.run(simulator, threads: threads, events: events, outcomes: outcomesPath) {
            progress.update($0)
          }
        } catch {
          // The tables are the user's own paths: the error names the option whose file, or folder, failed.
          let failed = URL(fileURLWithPath: error.path).standardized.path
          func isUnder(_ path: String) -> Bool {
            let file = URL(fileURLWithPath: path).standardized.path
            return file == failed || file.hasPrefix(failed + "/")
          }
          let option = isUnder(outcomesPath) && !isUnder(events) ? "--outcomes" : "--events"
          throw BenchError.unwritableFolder(option: option, path: error.path, reason: error.reason)
        }
        run.add(export.tally)
        eventCount = export.events
        simulated = 1
      }
      let done = simulated * scenario.devices
      await run.simulate(simulated..<replications, of: simulator, threads: threads) { progress.update(done + $0) }
      if worldEnds {
        let done = replications * scenario.devices
        await run.simulateAdoptionEnds(threads: threads) { progress.update(done + $0) }
      }
      progress.finish()
      let replaced = PreviousRun(in: folder.url)
      let reportURL = try run.write(out: out ?? "reports", html: formats.html)
      if !output.quiet {
        print(run.summary(reportURL: reportURL, html: formats.html))
        let this = PreviousRun(seed: scenario.seed, devices: scenario.devices, replications: replications)
        if let replaced, replaced != this {
          print("Replaced \(folder.url.relativePath)/, which held a run of \(replaced): pass --out FOLDER to keep both.")
        }
        if let events, let outcomesPath {
          print("Wrote \(events) (\(eventCount) events) and \(outcomesPath)")
        } else if let events, let eventsShape {
          print("Wrote \(events) (\(eventCount) events in \(eventsShape)'s shape)")
        }
      }
    }

    /// Simulates one shard's devices and writes its part for `bench merge`.
    private func runShard(
      _ shard: Shard, of simulator: Simulator, file: Data, threads: Int, replications: Int
    ) async throws {
      let scenario = simulator.plan.scenario
      let pieces = shard.pieces(replications: replications, devices: scenario.devices)
      let devices = pieces.map(\.devices.count).reduce(0, +)
      // The shard's devices over all its pieces, as one run.
      try RunLimits.check(simulator.plan, devices: devices, replications: 1, threads: threads, allowed: largeRun.allowLargeRun)
      let progress = ProgressBar(total: devices, enabled: !output.quiet)
      var tallies: [PartialResult.PieceTally] = []
      var done = 0
      for piece in pieces {
        let tally = await simulator.run(replication: piece.replication, devices: piece.devices, threads: threads) {
          progress.update(done + $0)
        }
        tallies.append(PartialResult.PieceTally(piece: piece, tally: tally))
        done += piece.devices.count
      }
      progress.finish()
      let part = PartialResult(
        header: PartHeader(
          benchVersion: Bench.configuration.version, scenarioFile: Array(file), seed: scenario.seed,
          devices: scenario.devices, replications: replications, shard: shard),
        pieces: tallies)
      let url = URL(fileURLWithPath: out ?? "parts")
        .appendingPathComponent(PartialResult.fileName(scenario: scenario.name, shard: shard))
      try AtomicFile.write(Data(part.encoded()), to: url)
      if !output.quiet {
        print("Simulated shard \(shard): \(CountText.grouped(devices)) of \(CountText.grouped(scenario.devices * replications)) device runs"
          + (replications > 1 ? " (\(CountText.grouped(scenario.devices)) devices × \(CountText.grouped(replications)) replications)" : "") + ".")
        print("Wrote \(url.relativePath)")
      }
    }

    /// The mapping --events-shape names; nil for the Lab table.
    func shapedMapping() throws -> ExportMapping? {
      guard let eventsShape else { return nil }
      let tools = ExportPreset.allCases.filter { $0 != .lab }
      guard let preset = ExportPreset(rawValue: eventsShape), let mapping = preset.mapping else {
        throw ValidationError(
          "--events-shape takes \(tools.map(\.rawValue).joined(separator: ", ")), not '\(eventsShape)'; "
            + "without it --events writes the Lab table.")
      }
      return mapping
    }

    /// A date's day number since 1970.
    static func date(_ text: String) throws -> Int {
      guard let day = EventTime.parseDate(text) else { throw ValidationError("--events-start takes a date as YYYY-MM-DD, not '\(text)'.") }
      return day
    }

    /// The Monday 2026-01-05 (day 20,458 since 1970), moved on to the
    /// scenario's weekday of day 0.
    static func defaultStart(firstWeekday: Weekday) -> Int {
      20_458 + Weekday.allCases.firstIndex(of: firstWeekday)!
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

/// What a report folder's results.json says of the run that wrote it, so
/// that a run replacing a different one (another seed, size or number of
/// replications) says so instead of overwriting it silently.
struct PreviousRun: Equatable, CustomStringConvertible {
  let seed: UInt64
  let devices: Int
  let replications: Int

  init(seed: UInt64, devices: Int, replications: Int) {
    self.seed = seed
    self.devices = devices
    self.replications = replications
  }

  /// The run whose results.json is in `folder`; nil when there is none, or it is no simulated run's.
  init?(in folder: URL) {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("results.json")),
      let results = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
      let seed = results["seed"] as? NSNumber, let devices = results["devices"] as? Int,
      let replications = results["replications"] as? Int
    else { return nil }
    self.init(seed: seed.uint64Value, devices: devices, replications: replications)
  }

  var description: String {
    "\(devices) devices, \(replications) replication\(replications == 1 ? "" : "s"), seed \(seed)"
  }
}
