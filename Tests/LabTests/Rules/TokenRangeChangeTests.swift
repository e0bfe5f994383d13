import Lab
import LabTestKit
import Testing

/// Rule 4 (docs/rules/TokenRangeChange.md): a device keeps the activity status
/// it recorded, active with its variant or inactive, whatever the new range;
/// only devices that decide afresh follow the new range.
@Suite struct TokenRangeChangeTests {
  @Test func anActiveDeviceOutsideTheNewRangeKeepsItsVariant() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 7, token: 0.25)
    try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 1)])
    let second = try device.launch([version2], draws: [])
    #expect(second.variant(of: "E") == "B")
  }

  /// The device recorded "inactive" under 1.0; the new range covers its token,
  /// yet it stays inactive, draws nothing and sends no event.
  @Test func anInactiveDeviceInsideTheNewRangeStaysInactive() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 8, token: 0.6)
    let first = try device.launch([version1], draws: [])
    #expect(first.variant(of: "E") == nil)
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == "inactive")
    let second = try device.launch([version2], draws: [])
    #expect(second.variant(of: "E") == nil)
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == "inactive")
    #expect(device.analytics.events.isEmpty)
  }

  /// A device whose first launch runs 2.0 has no record: it follows the new range.
  @Test func aFreshInstallFollowsTheNewRange() throws {
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 10, token: 0.6)
    let first = try device.launch([version2], draws: [WeightedSelection(version2).bits(selecting: 0)])
    #expect(first.variant(of: "E") == "A")
    #expect(device.analytics.summary(of: .activated) == ["E/A/color"])
  }

  /// A version that removed the experiment deleted the "inactive" record, so
  /// the version that brings it back decides it afresh against its range.
  @Test func aDeviceThatDecidesAfreshAfterARemovalFollowsTheNewRange() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.2, 0.4))
    let version3 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)], range: Fixtures.range(0.5, 0.7))
    var device = try Device(seed: 11, token: 0.6)
    try device.launch([version1], draws: [])
    try device.launch([], draws: [])
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == nil)
    let third = try device.launch([version3], draws: [WeightedSelection(version3).bits(selecting: 1)])
    #expect(third.variant(of: "E") == "B")
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

  /// After moving [0.2, 0.4) to [0.3, 0.6), the experiment is active exactly on
  /// the devices that ran 1.0 with a token in [0.2, 0.4): 20%; a widening
  /// reaches none of them. Devices first launched on 2.0 follow [0.3, 0.6).
  @Test func afterTheMoveTheExperimentIsActiveWhereItWasBeforeAndOnFreshInstallsInTheNewRange() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.2, 0.4))
    let version2 = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.3, 0.6))
    var random = SeededGenerator(seed: 44)
    var active = 0, freshActive = 0
    for device in 0..<20_000 {
      let storage = InMemoryStorage()
      let token = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
      let ranVersion1 = device % 2 == 0
      if ranVersion1 {
        _ = try LocalSource(experiments: [version1], token: token, storage: storage, random: &random)
      }
      let after = try LocalSource(experiments: [version2], token: token, storage: storage, random: &random)
      let isActive = after.decisions == [.active(variant: 0)]
      let range = ranVersion1 ? 0.2..<0.4 : 0.3..<0.6
      #expect(isActive == range.contains(token.value))
      if isActive { ranVersion1 ? (active += 1) : (freshActive += 1) }
    }
    #expect(withinBinomialBound(active, of: 10_000, p: 0.2))
    #expect(withinBinomialBound(freshActive, of: 10_000, p: 0.3))
  }
}
