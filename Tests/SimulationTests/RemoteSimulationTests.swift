import Foundation
import Lab
import Platforms
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

  /// remote-override: the fix reaches every stabilized Express device that
  /// was still launching on day 10, and only from day 10; without the
  /// override more of them are lost.
  @Test func remoteOverrideReachesStabilizedDevicesOnly() async throws {
    let scenario = try scenario("remote-override", devices: 4000)
    let delivery = try delivery(await run(scenario))
    let churn = try #require(delivery.churn.first)
    #expect(delivery.stabilized[0] > 0 && delivery.stabilized.last! > 3900)
    #expect(delivery.overridden.prefix(10).allSatisfy { $0 == 0 })
    #expect(delivery.overridden.reduce(0, +) == churn.rescued)
    #expect(churn.rescued > churn.exposed / 2)
    var withoutOverride = scenario
    withoutOverride.remote?.changes.removeAll {
      if case .override = $0.action { return true }
      return false
    }
    let unfixed = try #require(try self.delivery(await run(withoutOverride)).churn.first)
    #expect(unfixed.rescued == 0)
    #expect(churn.lost < unfixed.lost)
  }

  /// The seed (000): "if you added a new key to your experiment … devices
  /// that already have this experiment, will never have the new key". A key a
  /// later `__Keys_` declaration adds can be overridden, and the override
  /// reaches only stabilized devices that hold it: none before the override's
  /// day, and none of those that stabilized before the key was declared (on
  /// day 5), so fewer than an override of the original key reaches.
  @Test func anOverrideOfALaterDeclaredKeyReachesOnlyDevicesHoldingIt() async throws {
    let url = repositoryRoot.appendingPathComponent("scenarios/remote-override.json")
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var remote = try #require(object["remote"] as? [String: Any])
    var defaults = try #require(remote["defaults"] as? [String: Any])
    defaults["checkoutBanner"] = "none"
    remote["defaults"] = defaults
    var changes = try #require(remote["changes"] as? [[String: Any]])
    let declaration: [String: Any] = ["experiment": "CheckoutFlow", "value": #"["checkoutFlow", "checkoutBanner"]"#]
    changes.insert(["day": 5, "declareKeys": declaration], at: 1)
    var setValues = try #require(changes[2]["setValues"] as? [String: Any])
    setValues["values"] = ["checkoutFlow": "express-v2", "checkoutBanner": "sale"]
    changes[2]["setValues"] = setValues
    changes[3]["override"] = ["experiment": "CheckoutFlow", "keys": ["checkoutBanner"]]
    remote["changes"] = changes
    object["remote"] = remote
    var lateKey = try Scenario.parse(try JSONSerialization.data(withJSONObject: object)).scenario
    lateKey.devices = 4000
    let late = try delivery(await run(lateKey))
    let original = try delivery(await run(try scenario("remote-override", devices: 4000)))
    // The sums typed apart: inside one `#expect`, `reduce(0, +)` twice and `* 4` took 2 s to type-check.
    let lateOverridden: Int = late.overridden.reduce(0, +)
    let originalOverridden: Int = original.overridden.reduce(0, +)
    #expect(late.overridden.prefix(10).allSatisfy { $0 == 0 })
    #expect(lateOverridden > 0)
    #expect(lateOverridden * 4 < originalOverridden)
  }

  /// remote-conclusion: devices that never stabilize move to the winner at
  /// their next fetch; in the same plan with stabilization they keep Classic.
  @Test func remoteConclusionMovesOnlyUnstabilizedDevices() async throws {
    var scenario = try scenario("remote-conclusion", devices: 3000)
    let unstabilized = try #require(await run(scenario).experiment("CheckoutFlow"))
    scenario.versions[0].stabilizeOnLaunch = 2
    let stabilized = try #require(await run(scenario).experiment("CheckoutFlow"))
    let classic = try #require(unstabilized.variant("Classic"))
    // Nearly every Classic device launches again after day 10 (half the days, daily chance 0.5).
    #expect(classic.contaminated > classic.exposed * 9 / 10)
    #expect(try #require(stabilized.variant("Classic")).contaminated < classic.contaminated / 10)
  }

  /// remote-keys-declaration: a broken `__Keys_` declaration makes
  /// unstabilized devices drop the experiment at their next fetch: nobody is
  /// newly shown it afterwards.
  @Test func remoteKeysDeclarationBrokenHidesTheExperiment() async throws {
    let experiment = try #require(await run(try scenario("remote-keys-declaration", devices: 2000)).experiment("CheckoutFlow"))
    for variant in experiment.dailyNewExposures {
      #expect(variant[6...].allSatisfy { $0 == 0 })
      #expect(variant[..<6].reduce(0, +) > 0)
    }
  }

  /// remote-value-fallback: Express lacks buttonSize and Classic's is text
  /// where the app's default is a number, so every device falls back on
  /// every launch; a variant with every value in its type counts nothing.
  @Test func remoteValueFallbackCountsEveryMissingOrIncorrectValue() async throws {
    let results = await run(try scenario("remote-value-fallback", devices: 1000))
    // Every device launches every day and holds one of the two variants.
    #expect(try delivery(results).defaultFallbacks == Array(repeating: 1000, count: 5))
    var complete = try scenario("flaky-network", devices: 1000, days: 5)
    complete.remote?.fetch = .reliable
    #expect(try delivery(await run(complete)).defaultFallbacks.allSatisfy { $0 == 0 })
  }

  /// remote-sticky-assignment: devices assigned at 50/50 keep their variant
  /// when the percentages move to 10/90; only later first fetches follow the
  /// new split, so Classic's share of first exposures lies between the two.
  @Test func remoteStickyAssignmentMixesTheOldAndNewSplits() async throws {
    let experiment = try #require(await run(try scenario("remote-sticky-assignment")).experiment("CheckoutFlow"))
    let classic = try #require(experiment.variant("Classic")).firstExposed
    let express = try #require(experiment.variant("Express")).firstExposed
    let share = Double(classic) / Double(classic + express)
    // About 65% of devices first launch before day 10 (1 − 0.9¹⁰); at 20,000 devices the share's
    // standard error is about 0.004.
    #expect(share > 0.3 && share < 0.47)
    #expect(experiment.variants.map(\.contaminated) == [0, 0])
  }

  /// remote-stabilization: devices stabilized by day 10 are never exposed to
  /// the experiment that starts then; without stabilization nearly all are.
  @Test func remoteStabilizationIgnoresExperimentsThatStartLater() async throws {
    var scenario = try scenario("remote-stabilization", devices: 4000)
    let frozen = try #require(try delivery(await run(scenario)).enrollment.first { $0.experiment == "PaymentSheet" })
    scenario.versions[0].stabilizeOnLaunch = nil
    let open = try #require(try delivery(await run(scenario)).enrollment.first { $0.experiment == "PaymentSheet" })
    // Devices with fewer than two launches in days 0–9 (daily chance 0.2): 1 − P(two or more) ≈ 0.38.
    #expect(frozen.enrolled < 4000 * 45 / 100)
    #expect(open.enrolled > 4000 * 85 / 100)
    #expect(frozen.enrolled < open.enrolled / 2)
  }

  /// The day-21 change of stabilize-override sets Express's value and
  /// overrides it on stabilized devices. Told in devices: those that took the
  /// new value are exactly the devices whose launches show checkoutFlow going
  /// from "express-v1" to "express-v2"; without the override, the stabilized
  /// ones among them keep "express-v1" instead, and the two runs split the
  /// same devices (the change is where they part).
  @Test func aValueChangeIsToldInDevicesStabilizedOrNot() async throws {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("scenarios/stabilize-override.json"), encoding: .utf8)
    let override = #"{"day": 21, "override": {"experiment": "CheckoutFlow", "keys": ["checkoutFlow"]}},"#
    #expect(text.contains(override))
    func plan(_ text: String) throws -> Scenario {
      var scenario = try Scenario.parse(Data(text.utf8)).scenario
      scenario.devices = 3_000
      return scenario
    }
    func values(_ scenario: Scenario) async throws -> ServiceChangeResult.Values {
      let change = try #require(await run(scenario).experiment("CheckoutFlow")?.changes.first { $0.day == 21 })
      return try #require(change.values)
    }
    let overridden = try plan(text), stabilizedOnly = try plan(text.replacingOccurrences(of: override, with: ""))
    let with = try await values(overridden), without = try await values(stabilizedOnly)
    #expect(with.keptOld == 0 && with.overridden > 500)
    #expect(without.overridden == 0 && without.keptOld == with.overridden)
    #expect(with.took == without.took + without.keptOld)

    let simulator = Simulator(plan: SimulationPlan(overridden))
    let checkout = try #require(simulator.plan.experimentNames.firstIndex(of: "CheckoutFlow"))
    let expressVariant = try #require(simulator.plan.variantNames[checkout].firstIndex(of: "Express"))
    var tookNewValue = 0
    simulator.replay(devices: 0..<overridden.devices, makeObserver: { DeviceHistory(plan: simulator.plan) }) { history in
      let express = history.launches.compactMap { launch in launch.remote.first { $0.experiment == checkout && $0.variant == expressVariant }?.values["checkoutFlow"] }
      if zip(express, express.dropFirst()).contains(where: { $0 == .string("express-v1") && $1 == .string("express-v2") }) {
        tookNewValue += 1
      }
      return true
    }
    #expect(tookNewValue == with.took)
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
