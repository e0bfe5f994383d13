import Foundation
import Lab
import Results
import ScenarioFormat
import Simulation
import Testing

/// The remote service in the engine, by the rules of docs/rules/Remote*.md.
@Suite struct RemoteSimulationTests {
  private func delivery(_ results: ResultsDocument) throws -> DeliveryResult {
    try #require(results.delivery)
  }

  /// A reliable network enrols every device that launches at its first launch.
  @Test func aReliableNetworkEnrolsEveryDeviceAtOnce() async throws {
    var scenario = try scenario("flaky-network", devices: 3000, days: 10)
    scenario.remote?.fetch = .reliable
    let results = await run(scenario)
    let enrollment = try #require(try delivery(results).enrollment.first)
    #expect(enrollment.eligible > 2900)
    #expect(enrollment.enrolled == enrollment.eligible)
    #expect(enrollment.daysToEnroll[0] == enrollment.enrolled)
    #expect(try delivery(results).failedFetches.allSatisfy { $0 == 0 })
  }

  /// Failed fetches leave devices on their defaults; those that stabilize
  /// before a fetch succeeds never enrol. The split stays unbiased.
  @Test func aFlakyNetworkDelaysAndPreventsEnrollmentWithoutBiasingTheSplit() async throws {
    let results = await run(try scenario("flaky-network", devices: 6000))
    let delivery = try delivery(results)
    let enrollment = try #require(delivery.enrollment.first)
    #expect(delivery.failedFetches.reduce(0, +) > results.launches / 4)
    #expect(enrollment.enrolled < enrollment.eligible)
    #expect(try #require(enrollment.meanDaysToEnroll) > 0)
    let experiment = try #require(results.experiment("CheckoutFlow"))
    #expect(experiment.source == "remote")
    let split = experiment.variants.map(\.firstExposed)
    #expect(withinBinomialBound(split[0], of: split[0] + split[1], p: 0.5))
  }

  /// The override on day 21 reaches the stabilized Express devices; without it
  /// they keep the crashing value and more of them are lost.
  @Test func theOverrideRescuesStabilizedDevicesFromTheBug() async throws {
    let scenario = try scenario("stabilize-override", devices: 6000)
    let withOverride = try delivery(await run(scenario))
    var withoutOverrideScenario = scenario
    withoutOverrideScenario.remote?.changes.removeAll {
      if case .override = $0.action { return true }
      return false
    }
    let withoutOverride = try delivery(await run(withoutOverrideScenario))
    let churn = try #require(withOverride.churn.first), unfixed = try #require(withoutOverride.churn.first)
    #expect(churn.exposed == unfixed.exposed)
    #expect(churn.stuck > churn.exposed * 9 / 10)
    #expect(withOverride.overridden.prefix(21).allSatisfy { $0 == 0 })
    #expect(withOverride.overridden.reduce(0, +) > 0)
    #expect(churn.rescued > unfixed.rescued * 5)
    #expect(churn.lost < unfixed.lost)
    // Every device the override changed was holding the bug and had not yet been lost.
    #expect(withOverride.overridden.reduce(0, +) <= churn.rescued)
  }

  /// Concluding moves devices that never stabilized to the winner; stabilized
  /// devices keep their variant.
  @Test func concludingMovesOnlyUnstabilizedDevices() async throws {
    var scenario = try scenario("stabilize-override", devices: 3000)
    scenario.churn = []
    let stabilized = try #require(await run(scenario).experiment("CheckoutFlow"))
    scenario.versions[0].stabilizeOnLaunch = nil
    let unstabilized = try #require(await run(scenario).experiment("CheckoutFlow"))
    let movedWhenStabilized = stabilized.variants[0].contaminated
    let movedWhenNot = unstabilized.variants[0].contaminated
    #expect(movedWhenNot > unstabilized.variants[0].exposed / 2)
    #expect(movedWhenStabilized < movedWhenNot / 10)
  }

  /// A broken `__Keys_` declaration makes unstabilized devices drop the
  /// experiment at their next fetch: nobody is newly shown it afterwards.
  @Test func aBrokenKeysDeclarationHidesTheExperiment() async throws {
    var scenario = try scenario("flaky-network", devices: 2000, days: 12)
    scenario.remote?.fetch = .reliable
    scenario.versions[0].stabilizeOnLaunch = nil
    scenario.remote?.changes.append(RemoteChange(day: 6, action: .declareKeys(experiment: "CheckoutFlow", value: .json("oops"))))
    let experiment = try #require(await run(scenario).experiment("CheckoutFlow"))
    for variant in experiment.dailyNewExposures {
      #expect(variant[6...].allSatisfy { $0 == 0 })
      #expect(variant[..<6].reduce(0, +) > 0)
    }
  }

  /// A variant that lacks a key's value gives devices the app's default, and
  /// every such key is counted.
  @Test func missingValuesFallBackToDefaultsAndAreCounted() async throws {
    var scenario = try scenario("flaky-network", devices: 1000, days: 5)
    scenario.remote?.fetch = .reliable
    let complete = try delivery(await run(scenario))
    #expect(complete.defaultFallbacks.allSatisfy { $0 == 0 })
    guard case .add(var experiment, let keys)? = scenario.remote?.changes[0].action else {
      Issue.record("flaky-network starts by adding its experiment")
      return
    }
    experiment.variants[1].values = [:]
    scenario.remote?.changes[0].action = .add(experiment, keys: keys)
    let missing = try delivery(await run(scenario))
    #expect(missing.defaultFallbacks.reduce(0, +) > 0)
  }

  @Test func remoteRunsAreDeterministicAndReplayable() async throws {
    let scenario = try scenario("stabilize-override", devices: 1500, days: 30)
    #expect(await resultsJSON(scenario, threads: 1, batchSize: 100) == resultsJSON(scenario, threads: 2))
    let simulator = Simulator(plan: SimulationPlan(scenario), batchSize: 300)
    let (_, logs) = await simulator.run(replication: 0, threads: 2, makeObserver: { [plan = simulator.plan] in EventLog(plan: plan) })
    let rows = logs.flatMap(\.rows)
    #expect(rows.contains { $0.event.assignment.source == "Remote" && $0.event.reason == .displayed })
    for device in [0, 299, 300, 1499] {
      var history = DeviceHistory(plan: simulator.plan)
      _ = simulator.replay(device: device, observer: &history)
      #expect(history.events.rows == rows.filter { $0.device == device }, "device \(device)")
    }
  }
}
