import AnalyticsTable
import Foundation
import Platforms
import ScenarioFormat
import Simulation
import Testing

/// `--events` writes its tables batch by batch as the simulation goes: the
/// same bytes as the whole table built at once, in device order, whatever
/// the thread count.
@Suite struct EventsExportTests {
  /// A table written into the report's folder would be announced, then
  /// swept away when the staged folder is swapped in: such a path is refused
  /// before anything runs, and the report already there stays.
  @Test func aTableInsideTheReportFolderIsRefused() throws {
    let out = try temporaryFolder()
    let folder = out.appendingPathComponent("upgrade")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("earlier".utf8).write(to: folder.appendingPathComponent("report.md"))
    for (options, option, path) in [
      (["--events", folder.appendingPathComponent("events.csv").path], "--events", folder.appendingPathComponent("events.csv").path),
      (["--events", out.appendingPathComponent("e.csv").path, "--outcomes", folder.path + "/../upgrade/o.csv"], "--outcomes",
       folder.path + "/../upgrade/o.csv"),
    ] {
      let result = try BenchProcess.run([committedScenario("upgrade"), "--devices", "200", "--replications", "1", "--out", out.path, "--quiet"] + options)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix("Error: \(option) \(path) is inside the report's folder "), "\(result.standardError)")
      #expect(result.standardError.contains("which the run replaces whole: write it outside, e.g. \(option) upgrade-"))
      #expect(try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8) == "earlier")
    }
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("e.csv").path))
  }

  @Test func aStreamedExportIsTheWholeTable() async throws {
    var scenario = try Scenario.load(path: committedScenario("upgrade")).scenario
    scenario.devices = 17_000  // two batches
    let plan = SimulationPlan(scenario)
    let (_, logs) = await Simulator(plan: plan).run(replication: 0, threads: 2, makeObserver: { EventLog(plan: plan) })
    let whole = EventsTable.csv(logs.flatMap(\.rows))
    let outcomes = OutcomesTable.csv(logs.flatMap(\.outcomes), metrics: scenario.metrics.map(\.name))
    for threads in ["1", "2"] {
      let out = try temporaryFolder()
      let events = out.appendingPathComponent("events.csv")
      let result = try BenchProcess.run([
        committedScenario("upgrade"), "--devices", "17000", "--replications", "1", "--threads", threads, "--out", out.path, "--events", events.path,
      ])
      #expect(result.status == 0, "\(result.standardError)")
      #expect(try String(contentsOf: events, encoding: .utf8) == whole)
      #expect(try String(contentsOf: out.appendingPathComponent("events-outcomes.csv"), encoding: .utf8) == outcomes)
      #expect(result.standardOutput.contains("(\(logs.map(\.rows.count).reduce(0, +)) events)"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).allSatisfy { !$0.hasSuffix(".partial") })
    }
  }
}
