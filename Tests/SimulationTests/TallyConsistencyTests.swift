import Foundation
import ScenarioFormat
import Testing

@testable import Simulation

/// `RunTally.inconsistency` refuses the counts no run writes; every run's
/// counts pass it, and each relation it checks fails when broken.
@Suite struct TallyConsistencyTests {
  @Test(arguments: try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("scenarios").path)
    .filter { $0.hasSuffix(".json") }.sorted())
  func everyRunsCountsHoldTogether(file: String) async throws {
    let scenario = try scenario(String(file.dropLast(5)), devices: 1_500)
    let tally = await Simulator(plan: SimulationPlan(scenario)).run(replication: 0, threads: 2)
    #expect(tally.inconsistency == nil, "\(file): \(tally.inconsistency ?? "")")
  }

  @Test func eachBrokenRelationIsNamed() async throws {
    let scenario = try scenario("shared-key-clash", devices: 2_000)
    let tally = await Simulator(plan: SimulationPlan(scenario)).run(replication: 0, threads: 2)
    try #require(tally.inconsistency == nil && tally.conflicts[0].devices > 0)
    func broken(_ change: (inout RunTally) -> Void) -> String? {
      var copy = tally
      change(&copy)
      return copy.inconsistency
    }
    #expect(broken { $0.conflicts[0].lastDay = scenario.days } == "shared key 0 has clash days outside the run or without its devices")
    #expect(broken { $0.conflicts[0].firstDay = $0.conflicts[0].lastDay! + 1 } != nil)
    #expect(broken { $0.conflicts[0].firstDay = nil } != nil)
    #expect(broken { $0.conflicts[0].devices = $0.devices + 1 } == "shared key 0 counts more devices than the run has")
    #expect(broken { $0.experiments[0].variants[0].contaminated = $0.experiments[0].variants[0].exposed + 1 } != nil)
    #expect(broken { $0.experiments[0].variants[0].firstExposure[0].conversions += $0.devices } != nil)
    #expect(broken { $0.experiments[0].dailyNewExposures[0] += 1 } != nil)
    #expect(broken { $0.stabilizedDevices += 1 } == "its stabilized devices do not add up")
    #expect(broken { $0.experiments[0].neverEnrolledDevices += 1 } == "experiment 0: its never-enrolled devices do not add up")
    #expect(broken { $0.experiments[0].neverEnrolledDevices = $0.devices + 1 } != nil)
    let lapsing = try SimulationTests.scenario("apptimize-precondition-lapse", devices: 500)
    let lapses = await Simulator(plan: SimulationPlan(lapsing)).run(replication: 0, threads: 2)
    try #require(lapses.inconsistency == nil && lapses.enrollment.conditionLapsed[0].reduce(0, +) > 0)
    var moreLapsed = lapses
    moreLapsed.enrollment.conditionLapsed[0][1] += lapses.devices
    #expect(moreLapsed.inconsistency == "enrollment rule 0: more preconditions lapsed than met, or met than devices")
    // Sums of amounts no set of amounts has: Σx² below (Σx)²/n, a negative variance.
    #expect(broken { $0.experiments[0].variants[0].firstExposure[0].outcomes.sum += 1 << 40 } != nil)
  }
}
