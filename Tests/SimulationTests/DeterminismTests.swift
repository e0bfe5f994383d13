import Results
import Simulation
import Testing

@Suite struct DeterminismTests {
  @Test func twoRunsAreByteIdentical() async throws {
    let plan = try scenario("upgrade", devices: 3000)
    let first = await resultsJSON(plan, threads: 2)
    let second = await resultsJSON(plan, threads: 2)
    #expect(first == second)
    #expect(first.contains("\"scenario\": \"upgrade\""))
  }

  @Test func oneThreadAndTwoThreadsAgree() async throws {
    let plan = try scenario("upgrade", devices: 3000)
    #expect(await resultsJSON(plan, threads: 1, batchSize: 500) == resultsJSON(plan, threads: 2, batchSize: 500))
  }

  /// Tallies add exactly, so how devices are cut into batches does not matter.
  @Test func batchSizesAgree() async throws {
    let plan = try scenario("upgrade", devices: 3000)
    let whole = await resultsJSON(plan, threads: 1)
    #expect(await resultsJSON(plan, threads: 2, batchSize: 7) == whole)
    #expect(await resultsJSON(plan, threads: 2, batchSize: 1024) == whole)
  }

  @Test func anotherSeedGivesAnotherRun() async throws {
    var plan = try scenario("upgrade", devices: 2000)
    let first = await resultsJSON(plan, threads: 2)
    plan.seed += 1
    #expect(await resultsJSON(plan, threads: 2) != first)
  }

  /// A device replayed alone produces exactly the events it produced in the full run.
  @Test func aDeviceReplayedAloneMatchesTheFullRun() async throws {
    let plan = try scenario("upgrade", devices: 1500)
    let simulator = Simulator(plan: SimulationPlan(plan), batchSize: 256)
    let (_, logs) = await simulator.run(replication: 0, threads: 2, makeObserver: { [plan = simulator.plan] in EventLog(plan: plan) })
    let rows = logs.flatMap(\.rows)
    #expect(rows.map(\.device) == rows.map(\.device).sorted())
    for device in [0, 255, 256, 777, 1499] {
      var history = DeviceHistory(plan: simulator.plan)
      let alone = simulator.replay(device: device, observer: &history)
      #expect(alone.devices == 1)
      #expect(history.events.rows == rows.filter { $0.device == device }, "device \(device)")
      #expect(!history.launches.isEmpty)
    }
  }

  @Test func replicationsUseDerivedSeedsAndTheFirstIsTheScenarioSeed() async throws {
    let plan = try scenario("upgrade", devices: 1000)
    let simulator = Simulator(plan: SimulationPlan(plan))
    #expect(simulator.seed(ofReplication: 0) == plan.seed)
    #expect(simulator.seed(ofReplication: 1) != plan.seed)
    let first = await simulator.run(replication: 0, threads: 2)
    let second = await simulator.run(replication: 1, threads: 2)
    #expect(first != second)
    #expect(first.devices == 1000 && second.devices == 1000)
  }
}
