import Enrollment
import Lab
import LabTestKit
import ScenarioFormat
import Testing

@testable import Simulation

/// The engine's `EnrollmentGate` sequences the Apptimize wrapper's rules
/// itself, for speed; the wrapper's own `ExperimentsManager` is the
/// reference. Launch by launch, over random lives under every policy and
/// precondition, a device enrolls in the gate exactly when, and in the
/// variation, the manager enrolls it given the same events, checks and runs.
@Suite struct EnrollmentGateTests {
  private let variants = ["Original", "VariationA", "VariationB"]

  private func gate(policy: EnrollmentPolicy, events: Int?) throws -> EnrollmentGate {
    var scenario = try scenario("apptimize-check-dilution", days: 8)
    scenario.enrollment = [
      "Price": EnrollmentRule(policy: policy, precondition: events.map { .events(count: $0, perLaunch: 1) })
    ]
    return EnrollmentGate(plan: SimulationPlan(scenario))
  }

  private func manager(policy: EnrollmentPolicy, events: Int?) throws -> ExperimentsManager {
    let experiment = try WrappedExperiment(
      name: "Price", original: variants[0], variations: variants.map { WrappedVariation(name: $0) }, policy: policy,
      precondition: events.map(Precondition.events))
    return ExperimentsManager(experiments: [experiment])
  }

  @Test(arguments: EnrollmentPolicy.allCases)
  func theGateEnrollsAsTheWrapperDoes(policy: EnrollmentPolicy) throws {
    var random = SeededGenerator(seed: 27)
    let selection = WeightedSelection(weights: variants.map { _ in 1 })
    var enrolledLaunches = 0, lives = 0
    for required in [nil, 0, 1, 4] as [Int?] {
      for _ in 0..<200 {
        var gate = try gate(policy: policy, events: required)
        var manager = try manager(policy: policy, events: required)
        gate.reset(device: 0, random: DeviceRandom(seed: 27, replication: 0, device: 0))
        lives += 1
        // Lab decided the variant; the wrapper's allocation is pinned to it.
        let variant = Int.random(in: 0..<variants.count, using: &random)
        for day in 0..<8 {
          let events = Int.random(in: 0...2, using: &random)
          let checked = Bool.random(using: &random), shown = Bool.random(using: &random)
          // The manager: the app's events, its start, a check, and a run when it shows the price.
          for _ in 0..<events { manager.recordEvent() }
          var pinned = ScriptedGenerator(Array(repeating: selection.bits(selecting: variant), count: 3))
          manager.start(random: &pinned)
          if checked { _ = manager.check("Price", random: &pinned) }
          if shown { _ = manager.run("Price", random: &pinned) }
          // The gate, with the same events, check and display.
          // Without a precondition the rule starts met (`reset`), as the manager's does.
          let met = gate.conditionMet[0] || gate.recordEvents(events, rule: 0, day: day)
          if met {
            gate.allocate(rule: 0, variant: variant, checked: checked)
            if shown { gate.shown(rule: 0, variant: variant) }
          }
          let expected = manager.enrollments["Price"].flatMap(variants.firstIndex(of:)) ?? -1
          #expect(gate.enrolledVariant[0] == expected, "\(policy), \(required.map(String.init) ?? "no") precondition, day \(day)")
          if expected >= 0 { enrolledLaunches += 1 }
        }
      }
    }
    #expect(lives == 800)
    #expect(enrolledLaunches > 1000)
  }
}
