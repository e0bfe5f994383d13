import Foundation
import Lab
import Platforms
import ScenarioFormat
import Testing

@testable import Simulation

/// An upgrade that changes none of the local experiments skips the local
/// source's decisions (`SimulationTables.carriesDecisions`): these are the
/// upgrades it may skip, and the counts it must leave as deciding would.
struct CarriedDecisionsTests {
  private func carries(_ name: String) throws -> (Int, Int) -> Bool {
    let tables = SimulationTables(SimulationPlan(try scenario(name)))
    let carries = tables.carriesDecisions.array, versions = tables.versionCount
    return { from, to in carries[from * versions + to] }
  }

  @Test func aRelaunchOfTheSameVersionCarries() throws {
    for name in ["deleted-variant", "experiment-re-added", "upgrade"] {
      let carries = try carries(name)
      let versions = try scenario(name).versions.count
      for version in 0..<versions { #expect(carries(version, version), "\(name) version \(version)") }
    }
  }

  @Test func newWeightsValuesOrRangesCarry() throws {
    #expect(try carries("token-range-change")(0, 1))
    #expect(try carries("assignment-change")(0, 1))
  }

  @Test func aDeletedVariantOrExperimentDecidesAgain() throws {
    #expect(try !carries("deleted-variant")(0, 1))
    let reAdded = try carries("experiment-re-added")
    #expect(!reAdded(0, 1))
    #expect(!reAdded(1, 2))
    // A device that skips the version without the experiment still holds its record.
    #expect(reAdded(0, 2))
  }

  /// Launch by launch, every device of every committed scenario decides as
  /// the library's `LocalDecision` decides from the records its earlier
  /// launches left, rebuilt here from its history, whether the launch
  /// decided or carried them.
  @Test func everyLaunchFollowsTheRecordsOfTheLaunchesBefore() async throws {
    let folder = repositoryRoot.appendingPathComponent("scenarios").path
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
    #expect(names.count > 20)
    var carriedLaunches = 0
    for name in names.sorted() {
      var scenario = try Scenario.load(path: folder + "/" + name).scenario
      scenario.devices = 150
      let plan = SimulationPlan(scenario)
      let tables = SimulationTables(plan)
      let simulator = Simulator(plan: plan)
      for device in 0..<scenario.devices {
        var history = DeviceHistory(plan: plan)
        _ = simulator.replay(device: device, observer: &history)
        var records: [Int: Int] = [:]  // experiment: −1 inactive, else its global variant
        var previous = -1
        for launch in history.launches {
          let slots = plan.versions[launch.version].slots
          if previous >= 0, tables.carriesDecisions[previous * tables.versionCount + launch.version] {
            carriedLaunches += 1
          }
          previous = launch.version
          let defined = Set(slots.map(\.experimentID))
          records = records.filter { defined.contains($0.key) }
          for (index, slot) in slots.enumerated() {
            let decision = launch.decisions[index]
            let recall: LocalRecall
            switch records[slot.experimentID] {
            case nil: recall = .nothing
            case .some(-1): recall = .inactive
            case let global?:
              let local = global < slot.localOfGlobal.count ? slot.localOfGlobal[global] : -1
              recall = local >= 0 ? .variant(local) : .deletedVariant
            }
            // A fresh selection takes the engine's draw, which the test cannot repeat.
            let expected = LocalDecision.decide(recall: recall, range: slot.definition.activeTokenRange, token: history.token) {
              decision.variant ?? -1
            }
            #expect(decision == expected, "\(name) device \(device) on day \(launch.day)")
            if case .active(let variant) = decision { #expect(variant < slot.globalOfLocal.count) }
            records[slot.experimentID] = decision.variant.map { slot.globalOfLocal[$0] } ?? -1
          }
        }
      }
    }
    #expect(carriedLaunches > 1000)
  }
}
