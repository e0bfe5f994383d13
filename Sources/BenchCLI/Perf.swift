import AnalyticsTable
import ArgumentParser
import Benchmark
import Foundation
import Pipeline
import Platforms
import ScenarioFormat
import Simulation

extension Bench {
  /// Measures the simulation's speed and memory on a fixed workload.
  public struct Perf: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Measure simulation speed and memory on the fixed performance workload.",
      discussion: """
        The workload: 5 app versions, 5 local experiments of 3 variants each on disjoint token \
        ranges, one launch per device per version (with --world, 35 days in a fitted plan's world). Each configuration runs --rounds times per thread count, \
        alternating with the reference kernel (the same work as one plain loop); the faster run of \
        each counts, and ratio is the engine's speed over the reference's. Compare the figures of \
        one run with each other, not with another machine's. Build with -c release for meaningful \
        figures.
        """
    )

    @Option(
      name: .customLong("devices"), parsing: .upToNextOption,
      help: "The population sizes to measure.")
    var deviceCounts: [Int] = [100_000, 1_000_000, 10_000_000]

    @Option(
      name: .customLong("threads"), parsing: .upToNextOption,
      help: "The thread counts to measure (default: 1 and the number of cores).")
    var threadCounts: [Int] = []

    @Option(help: "How many times the engine and the reference kernel each run a configuration, alternating; the fastest of each counts (more rounds steady the ratio on a noisy machine).")
    var rounds = 2

    @Flag(help: "Print one JSON object per configuration instead of a table.")
    var json = false

    @Flag(
      help: "Run the workload in a team's world (installs every day, each device's own activity, weekdays, several launches a day, devices that stop, weekly versions) against the reference kernel doing the same.")
    var world = false

    @Flag(help: "Scale the devices, experiments, versions and days by 4 one at a time, on one thread, and print how the cost grows.")
    var sweep = false

    @Flag(help: "Measure the events export (bench run --events) and bench analyze reading it back, at the first --devices count.")
    var events = false

    @Option(
      name: .customLong("outside-loop"),
      help: ArgumentHelp(
        "Run this scenario at the first --devices count as bench run does and print the share of time outside the device loop.",
        valueName: "scenario"))
    var outsideLoop: String?

    @Option(
      help: ArgumentHelp(
        "Run this scenario's replications at its own number of devices (simulated and analysed, as bench run "
          + "--replications does) on one thread and on every core, and print replications per second.",
        valueName: "scenario"))
    var calibration: String?

    @Option(help: "How many replications --calibration runs.")
    var replications = 200

    @Flag(
      help: "Run one plan under each framework (Lab's sources and the six services) at the first --devices count and print device-days per second.")
    var frameworks = false

    @OptionGroup var largeRun: LargeRunFlag

    public init() {}

    public func validate() throws {
      for devices in deviceCounts { try RunLimits.check(devices: devices) }
      for threads in threadCounts { try RunLimits.check(threads: threads) }
      try RunLimits.check(replications: replications)
      if replications < 2 { throw ValidationError("--replications must be at least 2 for a rate of replications.") }
      guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be 1 to 100.") }
      if world && (sweep || events || outsideLoop != nil || calibration != nil || frameworks) {
        throw ValidationError(
          "--world measures the workload's table against the reference kernel; run it without --sweep, --events, --outside-loop, --calibration and --frameworks.")
      }
    }

    public func run() async throws {
      if sweep {
        try await runSweep()
        return
      }
      if events {
        try await runEvents()
        return
      }
      if let outsideLoop {
        try await runOutsideLoop(outsideLoop)
        return
      }
      if let calibration {
        try await runCalibration(calibration)
        return
      }
      if frameworks {
        try await runFrameworks()
        return
      }
      if !json { print(Measurement.header) }
      let threadCounts = threadCounts.isEmpty ? [1, ProcessInfo.processInfo.activeProcessorCount] : threadCounts
      for devices in deviceCounts {
        let scenario = try PerformanceWorkload.scenario(devices: devices, world: world)
        let simulator = Simulator(plan: SimulationPlan(scenario))
        let reference = ReferenceKernel(
          seed: scenario.seed, experiments: PerformanceWorkload.experiments, versions: PerformanceWorkload.versions,
          days: scenario.days, world: world)
        var measurements: [Measurement] = []
        for threads in threadCounts {
          // Engine and reference alternate, `rounds` times each; the fastest of each counts.
          var engineSeconds = Double.infinity, referenceSeconds = Double.infinity
          var steps = 0, bytesPerDevice = 0.0
          for pass in 0..<rounds {
            let memoryBefore = ResidentMemory.peakBytes()
            let start = ContinuousClock.now
            let tally = await simulator.run(replication: 0, threads: threads)
            engineSeconds = min(engineSeconds, Self.seconds(since: start))
            steps = tally.launches
            if pass == 0 {
              bytesPerDevice = Double(max(ResidentMemory.peakBytes() - memoryBefore, 0)) / Double(devices)
            }
            let referenceStart = ContinuousClock.now
            _ = await reference.run(devices: devices, threads: threads)
            referenceSeconds = min(referenceSeconds, Self.seconds(since: referenceStart))
          }
          let measurement = Measurement(
            devices: devices, threads: threads, steps: steps, seconds: engineSeconds,
            referenceSeconds: referenceSeconds, bytesPerDevice: bytesPerDevice)
          measurements.append(measurement)
          print(json ? measurement.json : measurement.row)
        }
        if !json, let one = measurements.first(where: { $0.threads == 1 }) {
          for other in measurements where other.threads > 1 {
            print(
              "  \(other.threads) threads / 1: engine \(Measurement.fixed(one.seconds / other.seconds, 2))×, "
                + "reference \(Measurement.fixed(one.referenceSeconds / other.referenceSeconds, 2))×")
          }
        }
      }
    }

    /// Named figures as one JSON object, or one per line.
    func printFigures(_ figures: [(name: String, value: String)]) {
      if json {
        print("{" + figures.map { "\"\($0.name)\": \($0.value)" }.joined(separator: ", ") + "}")
      } else {
        for figure in figures { print(figure.name.padding(toLength: 26, withPad: " ", startingAt: 0) + figure.value) }
      }
    }

    /// The time since `start`, at least the clock's nanosecond, so that a
    /// rate over it is finite on any machine.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
      let elapsed = ContinuousClock.now - start
      return max(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, 1e-9)
    }
  }
}

extension Bench.Perf {
  /// One size of the workload the sweep doubles.
  enum Dimension: String, CaseIterable {
    case devices, experiments, versions, days
  }

  /// Each size made 4 times larger in turn from the base workload at the
  /// first --devices count: the cost's exponent in that size, log₄ of the
  /// ratio of the times (1 is linear, 2 quadratic; fixed costs pull it below
  /// 1). Each configuration runs three times on one thread; the fastest runs
  /// give the exponent, and the slowest against the fastest its spread, so a
  /// busy machine shows as a wide range rather than as a wrong figure.
  func runSweep() async throws {
    let base: [Dimension: Int] = [
      .devices: deviceCounts[0], .experiments: PerformanceWorkload.experiments, .versions: PerformanceWorkload.versions,
      .days: PerformanceWorkload.versions,
    ]
    func seconds(_ size: [Dimension: Int]) async throws -> [Double] {
      let simulator = Simulator(plan: SimulationPlan(try PerformanceWorkload.scenario(
        devices: size[.devices]!, experiments: size[.experiments]!, versions: size[.versions]!, days: size[.days]!)))
      var times: [Double] = []
      for _ in 0..<3 {
        let start = ContinuousClock.now
        _ = await simulator.run(replication: 0, threads: 1)
        times.append(Self.seconds(since: start))
      }
      return times
    }
    func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
    func exponent(_ larger: Double, _ smaller: Double) -> String { Measurement.fixed(log2(larger / smaller) / 2, 2) }
    let baseTimes = try await seconds(base)
    print("size         base      ×4        seconds   ×4 seconds  exponent  spread")
    for dimension in Dimension.allCases {
      var size = base
      size[dimension]! *= 4
      // More versions are released on more days: one launch a version stays the workload.
      if dimension == .versions { size[.days] = size[.versions] }
      let times = try await seconds(size)
      let (fast, slow, baseFast, baseSlow) = (times.min()!, times.max()!, baseTimes.min()!, baseTimes.max()!)
      print(
        pad(dimension.rawValue, 13) + pad("\(base[dimension]!)", 10) + pad("\(size[dimension]!)", 10)
          + pad(Measurement.significant(baseFast), 10) + pad(Measurement.significant(fast), 12)
          + pad(exponent(fast, baseFast), 10) + "\(exponent(fast, baseSlow)) to \(exponent(slow, baseFast))")
    }
  }
}

extension Bench.Perf {
  /// The workload at the first --devices count simulated alone, then with its
  /// events and outcomes written to temporary files, then those tables read
  /// back by `bench analyze`'s reader: the rows each writes or reads a second,
  /// and the export's rate over the time it adds to the simulation.
  func runEvents() async throws {
    let devices = deviceCounts[0]
    let threads = threadCounts.first ?? ProcessInfo.processInfo.activeProcessorCount
    let scenario = try PerformanceWorkload.scenario(devices: devices)
    let simulator = Simulator(plan: SimulationPlan(scenario))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-perf-events-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let eventsPath = folder.appendingPathComponent("events.csv").path
    let outcomesPath = folder.appendingPathComponent("outcomes.csv").path

    var simulationSeconds = Double.infinity, exportSeconds = Double.infinity, analyzeSeconds = Double.infinity
    var rows = 0
    var exportMemory = 0, analyzeMemory = 0
    for _ in 0..<2 {
      var start = ContinuousClock.now
      _ = await simulator.run(replication: 0, threads: threads)
      simulationSeconds = min(simulationSeconds, Self.seconds(since: start))

      var memoryBefore = ResidentMemory.peakBytes()
      start = ContinuousClock.now
      let export = try await EventsExport.run(simulator, threads: threads, events: eventsPath, outcomes: outcomesPath)
      exportSeconds = min(exportSeconds, Self.seconds(since: start))
      exportMemory = max(exportMemory, ResidentMemory.peakBytes() - memoryBefore)
      rows = export.events + export.outcomes

      var options = EventsAnalysis.Options()
      options.scenario = scenario
      memoryBefore = ResidentMemory.peakBytes()
      start = ContinuousClock.now
      _ = try EventsAnalysis(events: eventsPath, outcomes: outcomesPath, name: "perf", options: options)
      analyzeSeconds = min(analyzeSeconds, Self.seconds(since: start))
      analyzeMemory = max(analyzeMemory, ResidentMemory.peakBytes() - memoryBefore)
    }
    let figures: [(String, String)] = [
      ("devices", "\(devices)"), ("threads", "\(threads)"), ("rows", "\(rows)"),
      ("simulationSeconds", Measurement.significant(simulationSeconds)),
      ("exportSeconds", Measurement.significant(exportSeconds)),
      ("exportRowsPerSecond", Measurement.fixed(Double(rows) / exportSeconds, 0)),
      ("exportRowsPerAddedSecond", Measurement.fixed(Double(rows) / max(exportSeconds - simulationSeconds, 1e-9), 0)),
      ("exportPeakGrowthMB", Measurement.fixed(Double(max(exportMemory, 0)) / 1e6, 1)),
      ("analyzeSeconds", Measurement.significant(analyzeSeconds)),
      ("analyzeRowsPerSecond", Measurement.fixed(Double(rows) / analyzeSeconds, 0)),
      ("analyzePeakGrowthMB", Measurement.fixed(Double(max(analyzeMemory, 0)) / 1e6, 1)),
    ]
    printFigures(figures)
  }
}

extension Bench.Perf {
  /// A whole run of a scenario, timed in its parts: reading the scenario and
  /// building the plan, the device loop (`Simulator.run`, batches merged as
  /// they finish), and the analysis and report written to a temporary folder.
  /// Each part is the faster of two runs.
  func runOutsideLoop(_ path: String) async throws {
    let devices = deviceCounts[0]
    let threads = threadCounts.first ?? ProcessInfo.processInfo.activeProcessorCount
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-perf-outside-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    var loading = Double.infinity, loop = Double.infinity, report = Double.infinity
    for _ in 0..<2 {
      var start = ContinuousClock.now
      var (scenario, _) = try Scenario.parse(try Scenario.read(path: path))
      scenario.devices = devices
      let simulator = Simulator(plan: SimulationPlan(scenario))
      loading = min(loading, Self.seconds(since: start))
      start = ContinuousClock.now
      let tally = await simulator.run(replication: 0, threads: threads)
      loop = min(loop, Self.seconds(since: start))
      start = ContinuousClock.now
      var run = SimulatedRun(scenario: scenario, plan: simulator.plan, replications: 1)
      run.add(tally)
      _ = try run.write(out: folder.path)
      report = min(report, Self.seconds(since: start))
    }
    let total = loading + loop + report
    let figures: [(String, String)] = [
      ("devices", "\(devices)"), ("threads", "\(threads)"),
      ("loadingSeconds", Measurement.significant(loading)), ("loopSeconds", Measurement.significant(loop)),
      ("reportSeconds", Measurement.significant(report)),
      ("outsideLoopShare", Measurement.fixed((loading + report) / total, 4)),
    ]
    printFigures(figures)
  }
}

extension Bench.Perf {
  /// A scenario's replications simulated, analysed and calibrated as `bench
  /// run --replications` does, on one thread and then on each thread count
  /// (by default every core): replications per second, the speedup, and
  /// whether the calibrations came out the same to the byte. Each runs twice;
  /// the faster counts.
  func runCalibration(_ path: String) async throws {
    let (scenario, _) = try Scenario.parse(try Scenario.read(path: path))
    let simulator = Simulator(plan: SimulationPlan(scenario))
    let counts = threadCounts.isEmpty ? [1, ProcessInfo.processInfo.activeProcessorCount] : threadCounts
    // Twice on each thread count: the estimate of bench run for all of it, as if on the fewest threads, and its limits.
    let fewest = counts.min() ?? 1
    try RunLimits.check(
      simulator.plan, devices: scenario.devices, replications: replications * 2 * counts.count, threads: fewest,
      allowed: largeRun.allowLargeRun)
    var figures: [(String, String)] = [("scenario", "\"\(scenario.name)\""), ("devices", "\(scenario.devices)"),
      ("replications", "\(replications)")]
    var firstSeconds: Double?, firstDocument: String?
    for threads in counts {
      var fastest = Double.infinity, document = ""
      for _ in 0..<2 {
        let start = ContinuousClock.now
        var run = SimulatedRun(scenario: scenario, plan: simulator.plan, replications: replications)
        await run.simulate(0..<replications, of: simulator, threads: threads)
        fastest = min(fastest, Self.seconds(since: start))
        document = run.resultsJSON()
      }
      figures.append(("replicationsPerSecond\(threads)", Measurement.fixed(Double(replications) / fastest, 2)))
      if let firstSeconds, let firstDocument {
        figures.append(("speedup\(threads)", Measurement.fixed(firstSeconds / fastest, 2)))
        figures.append(("identical\(threads)", document == firstDocument ? "true" : "false"))
      } else {
        (firstSeconds, firstDocument) = (fastest, document)
      }
    }
    printFigures(figures)
  }
}

/// The figures of one configuration: the engine's, and the reference
/// kernel's on the same workload in the same run.
struct Measurement {
  let devices: Int
  let threads: Int
  let steps: Int
  let seconds: Double
  let referenceSeconds: Double
  let bytesPerDevice: Double

  var stepsPerSecond: Double { Double(steps) / seconds }
  var referenceStepsPerSecond: Double { Double(steps) / referenceSeconds }
  /// The engine's speed as a share of the reference kernel's.
  var ratio: Double { referenceSeconds / seconds }

  var json: String {
    "{\"devices\": \(devices), \"threads\": \(threads), \"steps\": \(steps), \"seconds\": \(Self.significant(seconds)), "
      + "\"stepsPerSecond\": \(Self.fixed(stepsPerSecond, 0)), "
      + "\"referenceStepsPerSecond\": \(Self.fixed(referenceStepsPerSecond, 0)), \"ratio\": \(Self.fixed(ratio, 3)), "
      + "\"bytesPerDevice\": \(Self.fixed(bytesPerDevice, 2))}"
  }

  static let header = "devices     threads  steps        seconds   steps/s      reference/s  ratio  bytes/device"

  var row: String {
    func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
    return pad("\(devices)", 12) + pad("\(threads)", 9) + pad("\(steps)", 13) + pad(Self.significant(seconds), 10)
      + pad(Self.fixed(stepsPerSecond, 0), 13) + pad(Self.fixed(referenceStepsPerSecond, 0), 13)
      + pad(Self.fixed(ratio, 2), 7) + Self.fixed(bytesPerDevice, 2)
  }

  static func fixed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
  }

  /// A time to four significant digits, in plain decimals: a fixed number of
  /// decimals prints a fast machine's milliseconds as 0.
  static func significant(_ value: Double, digits: Int = 4) -> String {
    guard value.isFinite, value != 0 else { return fixed(value, 0) }
    let magnitude = Int(floor(log10(abs(value))))
    return fixed(value, min(max(digits - 1 - magnitude, 0), 12))
  }
}

/// The process's peak resident memory, from /proc/self/status (Linux).
enum ResidentMemory {
  static func peakBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    else { return 0 }
    return kilobytes * 1024
  }
}
