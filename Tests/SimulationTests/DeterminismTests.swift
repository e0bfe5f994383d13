import Results
import ScenarioFormat
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

/// A day's launches after its first run as one where they can change nothing
/// but counts (`DeviceSimulator.repeatLaunches`); a run with an observer, which
/// records every launch, runs them one by one. Both count the same, byte for
/// byte, with sessions beside stabilize on a later launch, experiments shown
/// once, novelty, and a remote source (which launches one by one either way).
@Suite struct RepeatedLaunchesTests {
  private func withSessions(_ name: String, launches: Double = 2.6) throws -> Scenario {
    var plan = try scenario(name, devices: 1_500)
    for index in plan.population.segments.indices {
      plan.population.segments[index].activity = Activity(
        probability: BetaDistribution(mean: 0.6, concentration: 3), launchesPerActiveDay: launches,
        inactivityHazard: 0.01)
    }
    return plan
  }

  @Test func aDaysLaunchesCountAlikeRunAsOneOrOneByOne() async throws {
    var stabilizing = try withSessions("local-stabilization")
    for index in stabilizing.versions.indices { stabilizing.versions[index].stabilizeOnLaunch = 3 + index }
    let plans = [
      try scenario("sessions-and-activity", devices: 1_500), stabilizing, try withSessions("displayed-once"),
      try withSessions("novelty-effects"), try withSessions("remote-stabilization"),
    ]
    for plan in plans {
      let simulator = Simulator(plan: SimulationPlan(plan), batchSize: 256)
      let folded = await simulator.run(replication: 0, threads: 2)
      let (observed, _) = await simulator.run(
        replication: 0, threads: 2, makeObserver: { [plan = simulator.plan] in EventLog(plan: plan) })
      #expect(folded == observed, "\(plan.name)")
      // Not an empty agreement: the sessions draw from a stream of their own, so one launch an active
      // day launches on the same days, and several a day launch more than 1.5 times as often.
      var single = plan
      for index in single.population.segments.indices { single.population.segments[index].activity.launchesPerActiveDay = 1 }
      let once = await Simulator(plan: SimulationPlan(single)).run(replication: 0, threads: 2)
      #expect(Double(folded.launches) > 1.5 * Double(once.launches), "\(plan.name): \(folded.launches) and \(once.launches)")
    }
    #expect(
      await Simulator(plan: SimulationPlan(stabilizing)).run(replication: 0, threads: 2).stabilizedDevices > 0)
  }
}
