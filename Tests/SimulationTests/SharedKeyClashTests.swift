import Lab
import LabTestKit
import Results
import Simulation
import Testing

/// What the engine serves when a plan breaks Lab's shared-key rule
/// (docs/decisions.md): the experiment first in the manager's order keeps the
/// key, the other is discarded at that launch only, every other experiment is
/// served, and each clash is counted under `conflicts`.
@Suite struct SharedKeyClashTests {
  /// PaywallCopy holds paywallTitle from day 10 to 14 only: every device
  /// (all launch daily, fetches never fail) clashes on exactly those days, the
  /// local Paywall keeps the key, and nothing else loses a device.
  @Test func aKeyHeldForFiveDaysClashesOnThoseDaysOnly() async throws {
    let results = await run(try scenario("shared-key-clash"))
    let conflict = try #require(results.conflicts.first)
    #expect(results.conflicts.count == 1)
    #expect(conflict.key == "paywallTitle" && conflict.experiments == ["Paywall", "PaywallCopy"])
    #expect(conflict.devices == 20_000)
    #expect(conflict.firstDay == 10 && conflict.lastDay == 14)
    #expect(conflict.served.map(\.experiment) == ["Paywall", "Paywall"])
    #expect(conflict.served.map(\.devices).reduce(0, +) == 20_000)
    let paywall = try #require(results.experiment("Paywall"))
    #expect(conflict.served.map(\.devices) == [paywall.variant("Bold")?.exposed, paywall.variant("Plain")?.exposed])
    for name in ["Paywall", "Onboarding", "PaywallCopy"] {
      let experiment = try #require(results.experiment(name))
      #expect(experiment.variants.map(\.exposed).reduce(0, +) == 20_000, "\(name)")
      #expect(experiment.variants.map(\.contaminated) == [0, 0], "\(name)")
    }
  }

  /// The library's `AssignmentsManager` and the engine give the same answer at
  /// every launch: fed what the engine's device held, the manager serves the
  /// same experiments, reports the same clashes and the same analytics events.
  @Test func theManagerAndTheEngineServeTheSameAtEveryLaunch() throws {
    for name in ["shared-key-clash", "upgrade"] {
      let plan = SimulationPlan(try scenario(name, devices: 300))
      let simulator = Simulator(plan: plan)
      var clashes = 0
      for device in 0..<300 {
        var history = DeviceHistory(plan: plan)
        _ = simulator.replay(device: device, observer: &history)
        let storage = InMemoryStorage(), delegate = RecordingDelegate()
        var eventRows = history.events.rows.filter { $0.event.reason != .displayed }[...]
        for launch in history.launches {
          let version = plan.versions[launch.version]
          let local = zip(version.slots, launch.decisions).compactMap { slot, decision in
            decision.variant.map {
              ActiveVariant(experiment: slot.definition.name, variant: slot.definition.variants[$0], source: "Local")
            }
          }
          let remote = launch.remote.map { holding in
            ActiveVariant(
              experiment: plan.experimentNames[holding.experiment],
              variant: Variant(name: plan.variantNames[holding.experiment][holding.variant], assignments: holding.values),
              source: "Remote")
          }
          delegate.removeAll()
          let manager = try AssignmentsManager(
            sources: [FixedSource(name: "Local", activeVariants: local), FixedSource(name: "Remote", activeVariants: remote)],
            storage: storage, delegate: delegate)
          let engineServed = zip(version.slots, launch.served).filter(\.1).map(\.0.definition.name)
            + launch.remote.filter(\.served).map { plan.experimentNames[$0.experiment] }
          #expect(Set(manager.activeAssignments.values.map(\.experiment)) == Set(engineServed), "\(name) device \(device)")
          let engineClashes = launch.clashes.map {
            "\(plan.experimentNames[$0.servedExperiment])/\(plan.variantNames[$0.servedExperiment][$0.servedVariant]) > "
              + "\(plan.experimentNames[$0.discardedExperiment])/\(plan.variantNames[$0.discardedExperiment][$0.discardedVariant]) "
              + "\($0.keys)"
          }
          let managerClashes = delegate.clashes.map {
            "\($0.served.experiment)/\($0.served.variant.name) > \($0.discarded.experiment)/\($0.discarded.variant.name) \($0.keys)"
          }
          #expect(managerClashes == engineClashes, "\(name) device \(device) day \(launch.day)")
          clashes += engineClashes.count
          let engineEvents = eventRows.prefix { $0.day == launch.day }.map(\.event)
          eventRows = eventRows.dropFirst(engineEvents.count)
          #expect(delegate.events == Array(engineEvents), "\(name) device \(device) day \(launch.day)")
        }
      }
      #expect(clashes > 0, "\(name) meets no clash: the comparison would prove nothing")
    }
  }
}
