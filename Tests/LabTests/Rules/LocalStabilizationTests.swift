import Lab
import LabTestKit
import Testing

/// Rule 6 (docs/rules/LocalStabilization.md): stabilization is a hint the
/// local source ignores.
@Suite struct LocalStabilizationTests {
  @Test func stabilizingChangesNothingNow() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    var device = try Device(seed: 10, token: 0.5)
    var manager = try device.launch([experiment], draws: [WeightedSelection(experiment).bits(selecting: 1)])
    let before = manager.activeAssignments
    let stored = device.storage.snapshot
    device.analytics.removeAll()
    try manager.stabilizeUserExperienceAssignments()
    #expect(manager.activeAssignments == before)
    #expect(device.storage.snapshot == stored)
    #expect(device.analytics.events.isEmpty)
  }

  @Test func theNextVersionStillAppliesEveryChangeRule() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("C", 1)])
    let newcomer = try Fixtures.experiment("F", variants: [("X", 1)], key: "size")
    var device = try Device(seed: 11, token: 0.5)
    var manager = try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 1)])
    try manager.stabilizeUserExperienceAssignments()
    let second = try device.launch([version2, newcomer], draws: [WeightedSelection(version2).bits(selecting: 1), 0])
    #expect(second.variant(of: "E") == "C")
    #expect(second.variant(of: "F") == "X")
  }
}
