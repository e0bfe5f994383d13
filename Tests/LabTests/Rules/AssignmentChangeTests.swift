import Lab
import LabTestKit
import Testing

/// Rule 1 (docs/rules/AssignmentChange.md): only names persist, so devices
/// holding a variant get its new values.
@Suite struct AssignmentChangeTests {
  @Test func devicesHoldingTheChangedVariantGetTheNewValues() throws {
    let version1 = try Experiment(
      name: "E", keys: ["color"],
      variants: [
        Variant(name: "A", assignments: ["color": .string("red")]),
        Variant(name: "B", assignments: ["color": .string("green")]),
      ])
    let version2 = try Experiment(
      name: "E", keys: ["color"],
      variants: [
        Variant(name: "A", assignments: ["color": .string("red")]),
        Variant(name: "B", assignments: ["color": .string("blue")]),
      ])
    var device = try Device(seed: 1, token: 0.5)
    let first = try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 1)])
    #expect(first.activeAssignments["color"]?.value == .string("green"))

    device.analytics.removeAll()
    let second = try device.launch([version2], draws: [])
    #expect(second.activeAssignments["color"] == Assignment(
      key: "color", value: .string("blue"), variant: "B", experiment: "E", source: "Local"))
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == "active:B")
    #expect(device.analytics.events == [
      AnalyticsEvent(
        assignment: Assignment(key: "color", value: .string("green"), variant: "B", experiment: "E", source: "Local"),
        reason: .deactivated),
      AnalyticsEvent(
        assignment: Assignment(key: "color", value: .string("blue"), variant: "B", experiment: "E", source: "Local"),
        reason: .activated),
    ])
  }

  @Test func devicesHoldingAnotherVariantSeeNoChange() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    var version2Variants = version1.variants
    version2Variants[1].assignments["color"] = .string("blue")
    let version2 = try Experiment(name: "E", keys: ["color"], variants: version2Variants)
    var device = try Device(seed: 2, token: 0.5)
    try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 0)])
    device.analytics.removeAll()
    let second = try device.launch([version2], draws: [])
    #expect(second.activeAssignments["color"]?.value == .string("a"))
    #expect(device.analytics.events.isEmpty)
  }
}
