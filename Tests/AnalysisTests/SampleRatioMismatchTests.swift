import Analysis
import Foundation
import Platforms
import Results
import ScenarioFormat
import Simulation
import Statistics
import Testing

/// The sample ratio mismatch check tests first exposures against the split
/// the configuration and its history produce, not the latest nominal weights.
@Suite struct SampleRatioMismatchTests {
  private func analysed(_ scenario: Scenario) async -> ResultsDocument {
    let simulator = Simulator(plan: SimulationPlan(scenario))
    let tally = await simulator.run(replication: 0, threads: 2)
    return ExperimentAnalyzer(settings: scenario.analysis).analyze(ResultsDocument(plan: simulator.plan, tally: tally))
  }

  /// Version 2.0 triples B's weight. Devices that chose in 1.0 keep their
  /// choice, so the split is a mixture of both versions' weights.
  private let stickyWeightChange = """
    { "name": "sticky", "seed": 42, "devices": 40000, "days": 10,
      "population": { "segments": [ { "name": "everyone", "share": 1, "dailyLaunchProbability": 0.15 } ] },
      "versions": [
        { "version": "1.0", "releaseDay": 0, "experiments": [
          { "name": "Layout", "keys": ["layout"], "variants": [
            { "name": "A", "weight": 1, "assignments": { "layout": "a" } },
            { "name": "B", "weight": 1, "assignments": { "layout": "b" } } ] } ] },
        { "version": "2.0", "releaseDay": 4, "adoption": { "meanDelayDays": 0 }, "experiments": [
          { "name": "Layout", "keys": ["layout"], "variants": [
            { "name": "A", "weight": 1, "assignments": { "layout": "a" } },
            { "name": "B", "weight": 3, "assignments": { "layout": "b" } } ] } ] } ] }
    """

  @Test func aStickyWeightChangeIsNoMismatch() async throws {
    let document = await analysed(try Scenario.parse(Data(stickyWeightChange.utf8)).scenario)
    let experiment = try #require(document.experiments.first)
    let srm = try #require(experiment.srm)
    #expect(!srm.isMismatch)
    #expect(try #require(srm.pValue) > 0.001)
    #expect(srm.expected[1] > 0.5 && srm.expected[1] < 0.75)
    // Against the nominal weights of 2.0 alone, the same counts raise a false alarm.
    let nominal = GoodnessOfFit.pearson(observed: experiment.variants.map(\.firstExposed), expectedShares: [0.25, 0.75])
    #expect(try #require(nominal.pValue) < 1e-10)
  }

  @Test func theChangeRulesAndTheUpgradePlanRaiseNoFalseAlarm() async throws {
    for name in ["upgrade", "deleted-variant", "experiment-re-added", "token-range-change", "local-stabilization"] {
      let document = await analysed(try committedScenario(name))
      for experiment in document.experiments {
        let srm = try #require(experiment.srm)
        #expect(!srm.isMismatch, "\(name) \(experiment.name): p = \(srm.pValue ?? -1)")
      }
    }
  }

  @Test func theExpectedFirstExposuresAddUpToTheExposedDevices() async throws {
    let document = await analysed(try committedScenario("upgrade"))
    for experiment in document.experiments {
      let expected = experiment.variants.compactMap(\.expectedFirstExposed).reduce(0, +)
      let observed = experiment.variants.map(\.firstExposed).reduce(0, +)
      #expect(abs(expected - Double(observed)) < 1e-6, "\(experiment.name)")
    }
  }
}
