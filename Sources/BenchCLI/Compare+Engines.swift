import Analysis
import ArgumentParser
import AtomicOutput
import Foundation
import Pipeline
import Report
import Results
import ScenarioFormat
import Simulation

extension Bench.Compare {
  func chosenEngines() throws -> [AnalysisEngine] {
    do {
      let chosen = try AnalysisEngine.list(engines ?? "")
      guard !chosen.isEmpty else { throw ValidationError("--engines must name at least one engine.") }
      return chosen
    } catch let error as EngineListError {
      throw ValidationError("--engines: \(error).")
    }
  }

  /// Simulates the plan's replications once and reads each with every chosen engine: per
  /// experiment and engine, how often the decision was right (`EngineCalibrationSummary`).
  func compareEngines(_ scenario: Scenario) async throws {
    let engines = try chosenEngines()
    let threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
    let replications = replications ?? SimulatedRun.defaultReplications(devices: scenario.devices, days: scenario.days)
    let simulator = Simulator(plan: SimulationPlan(scenario))
    try RunLimits.check(
      simulator.plan, devices: scenario.devices, replications: replications, threads: threads, allowed: largeRun.allowLargeRun)
    RunLimits.adviseOnTheBuild(
      simulator.plan, devices: scenario.devices, replications: replications, threads: threads, quiet: output.quiet)
    let progress = ProgressBar(devices: scenario.devices, replications: replications, enabled: !output.quiet)
    var run = SimulatedRun(scenario: scenario, plan: simulator.plan, replications: replications)
    run.engines = EngineCalibrationSummary(engines: engines, settings: scenario.analysis)
    await run.simulate(0..<replications, of: simulator, threads: threads) { progress.update($0) }
    progress.finish()
    guard let calibration = run.engines?.calibration else { return }
    let report = EngineComparisonReport.document(
      scenario: scenario.name, description: scenario.description, devices: scenario.devices, days: scenario.days,
      seed: scenario.seed, calibration: calibration, rules: engines.map { $0.rule(scenario.analysis) })
    let markdown = MarkdownReport.render(report)
    let folder = URL(fileURLWithPath: out).appendingPathComponent(scenario.name + "-engines")
    try ReportFolder.stage(at: folder) { staged throws(OutputError) in
      try staged.write(markdown, to: "engines.md")
    }
    if !output.quiet {
      print(markdown, terminator: "")
      print("Wrote \(folder.appendingPathComponent("engines.md").relativePath)")
    }
  }
}
