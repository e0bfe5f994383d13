import AnalyticsTable
import Foundation
import Platforms
import Results
import ScenarioFormat
import Simulation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Where these tests write their files: one folder per test process, removed when it exits.
let scratchFolder: URL = {
  atexit { try? FileManager.default.removeItem(at: scratchFolder) }
  return FileManager.default.temporaryDirectory.appendingPathComponent("lab-bench-tables-\(ProcessInfo.processInfo.processIdentifier)")
}()

func temporaryFile(_ name: String, _ text: String) throws -> String {
  let folder = scratchFolder.appendingPathComponent("tables-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let url = folder.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url.path
}

/// Simulate, export the analytics table and the outcomes, read them back: the
/// counts and statistics agree with the simulation's own.
@Suite struct RoundTripTests {
  @Test func theTablesGiveBackTheSimulatedCounts() async throws {
    var scenario = try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/upgrade.json").path).scenario
    scenario.devices = 3000
    let simulator = Simulator(plan: SimulationPlan(scenario))
    let (tally, logs) = await simulator.run(replication: 0, threads: 2, makeObserver: { [plan = simulator.plan] in EventLog(plan: plan) })
    let simulated = ResultsDocument(plan: simulator.plan, tally: tally)
    let events = try temporaryFile("events.csv", EventsTable.csv(logs.flatMap(\.rows)))
    let outcomes = try temporaryFile("outcomes.csv", OutcomesTable.csv(logs.flatMap(\.outcomes), metrics: scenario.metrics.map(\.name)))
    var options = EventsAnalysis.Options()
    options.scenario = scenario
    let analysed = try EventsAnalysis(events: events, outcomes: outcomes, name: "upgrade", options: options).document

    #expect(analysed.devices == 3000)
    #expect(analysed.days == simulated.days)
    #expect(analysed.experiments.map(\.name) == simulated.experiments.map(\.name))
    for (read, run) in zip(analysed.experiments, simulated.experiments) {
      #expect(read.baseline == run.baseline)
      #expect(read.mixedDevices == run.mixedDevices)
      #expect(read.dailyNewExposures == run.dailyNewExposures)
      #expect(read.variants.map(\.name) == run.variants.map(\.name))
      for (variant, simulatedVariant) in zip(read.variants, run.variants) {
        #expect(variant.exposed == simulatedVariant.exposed)
        #expect(variant.contaminated == simulatedVariant.contaminated)
        #expect(variant.firstExposed == simulatedVariant.firstExposed)
        for (metric, simulatedMetric) in zip(variant.metrics, simulatedVariant.metrics) {
          #expect(metric.n == simulatedMetric.n)
          #expect(metric.conversions == simulatedMetric.conversions)
          #expect(metric.mean == simulatedMetric.mean)
          #expect(metric.variance == simulatedMetric.variance)
        }
      }
      for day in read.dailyMetrics.indices {
        #expect(read.dailyMetrics[day].map { $0.map(\.n) } == run.dailyMetrics[day].map { $0.map(\.n) })
      }
    }
  }
}
