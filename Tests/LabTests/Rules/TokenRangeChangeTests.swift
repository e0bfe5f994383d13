import Lab
import LabTestKit
import Testing

/// Rule 4 (docs/rules/TokenRangeChange.md): devices where the experiment was
/// active keep it and their variant; devices where it was inactive are decided
/// again against the new range.
@Suite struct TokenRangeChangeTests {
  @Test func anActiveDeviceOutsideTheNewRangeKeepsItsVariant() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 7, token: 0.25)
    try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 1)])
    let second = try device.launch([version2], draws: [])
    #expect(second.variant(of: "E") == "B")
  }

  @Test func anInactiveDeviceInsideTheNewRangeBecomesActive() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 8, token: 0.6)
    let first = try device.launch([version1], draws: [])
    #expect(first.variant(of: "E") == nil)
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == "inactive")
    let second = try device.launch([version2], draws: [WeightedSelection(version2).bits(selecting: 0)])
    #expect(second.variant(of: "E") == "A")
    #expect(device.analytics.summary(of: .activated) == ["E/A/color"])
  }

  @Test func anInactiveDeviceOutsideBothRangesStaysInactive() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 9, token: 0.9)
    try device.launch([version1], draws: [])
    let second = try device.launch([version2], draws: [])
    #expect(second.activeAssignments.isEmpty)
    #expect(device.analytics.events.isEmpty)
  }

  /// After moving [0.2, 0.4) to [0.3, 0.6), the experiment is active on the
  /// union of both ranges, [0.2, 0.6): 40% of devices.
  @Test func afterTheMoveTheExperimentIsActiveOnTheUnionOfBothRanges() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.3, 0.6))
    var random = SeededGenerator(seed: 44)
    var active = 0
    for _ in 0..<20_000 {
      let storage = InMemoryStorage()
      let token = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
      _ = try LocalSource(experiments: [version1], token: token, storage: storage, random: &random)
      let after = try LocalSource(experiments: [version2], token: token, storage: storage, random: &random)
      #expect((after.decisions == [.active(variant: 0)]) == (token.value >= 0.2 && token.value < 0.6))
      if after.decisions == [.active(variant: 0)] { active += 1 }
    }
    #expect(withinBinomialBound(active, of: 20_000, p: 0.4))
  }
}
