import Lab
import Results
import Simulation
import Testing

/// docs/rules/KOMARemoteValues.md in the engine: every device fetches daily
/// without failure, so each day's reads are exact counts of the groups.
@Suite struct KOMARemoteValuesScenarioTests {
  @Test func readsAreTrackedOncePerFetchAndTheBaselineFlagIsShownWithoutItsSuffix() async throws {
    let plan = SimulationPlan(try scenario("koma-remote-values"))
    let results = await run(plan.scenario)
    let experiment = try #require(results.experiment("PaywallType"))
    let baseline = try #require(experiment.variant("Baseline")).exposed, a = try #require(experiment.variant("A")).exposed
    let c = try #require(experiment.variant("C")).exposed
    #expect(baseline + a + c == 20_000)
    #expect(withinBinomialBound(baseline, of: 20_000, p: 0.4))
    let tracking = try #require(results.delivery?.tracking)
    #expect(tracking.map(\.name) == ["experimentalGroup", "keyNotFound", "incorrectValue"])
    #expect(tracking[0].days == Array(repeating: baseline + a, count: 5))
    #expect(tracking[1].days == Array(repeating: 20_000, count: 5))
    #expect(tracking[2].days == Array(repeating: c, count: 5))
    // What a device is shown: b for the baseline group (the flag stripped), the default b for C.
    var shown: [String: Set<AssignmentValue>] = [:]
    let simulator = Simulator(plan: plan)
    for device in 0..<200 {
      var history = DeviceHistory(plan: plan)
      _ = simulator.replay(device: device, observer: &history)
      for holding in history.launches.flatMap(\.remote) {
        shown[plan.variantNames[holding.experiment][holding.variant], default: []].insert(holding.values["paywallType"]!)
      }
    }
    #expect(shown == ["Baseline": [.string("b")], "A": [.string("a")], "C": [.string("b")]])
  }

  /// docs/rules/KOMACustomAndDebugValues.md in the engine: each device has
  /// custom values with 5%, debug values with 10%, drawn once; the custom
  /// value wins where both are, so a day's reads are 5% custom, 9.5% debug
  /// and the rest groups, the same devices every day, and only the devices
  /// tracked in a group are shown PaywallType.
  @Test func customAndDebugValuesStandInForTheGroupsOnAShareOfDevices() async throws {
    let results = await run(try scenario("koma-custom-and-debug-values"))
    let tracking = try #require(results.delivery?.tracking)
    #expect(tracking.map(\.name) == ["experimentalGroup", "keyNotFound", "incorrectValue", "customValue", "debugValue"])
    let group = tracking[0].days[0], custom = tracking[3].days[0], debug = tracking[4].days[0]
    for series in tracking { #expect(Set(series.days).count == 1, "\(series.name): the same devices every day") }
    #expect(group + custom + debug == 20_000)
    #expect(withinBinomialBound(custom, of: 20_000, p: 0.05))
    #expect(withinBinomialBound(debug, of: 20_000, p: 0.95 * 0.1))
    let experiment = try #require(results.experiment("PaywallType"))
    #expect(experiment.variants.map(\.exposed).reduce(0, +) == group)
    #expect(withinBinomialBound(try #require(experiment.variant("A")).exposed, of: group, p: 0.5))
  }
}
