import Lab
import LabTestKit
import Testing

/// Rule 3 (docs/rules/DeletedVariant.md): a device whose variant was deleted
/// selects again among the current variants, as for a new experiment.
@Suite struct DeletedVariantTests {
  @Test func aDeviceOnTheDeletedVariantSelectsAgainAmongTheCurrentOnes() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("C", 1)])
    var device = try Device(seed: 5, token: 0.5)
    try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 1)])
    device.analytics.removeAll()

    let second = try device.launch([version2], draws: [WeightedSelection(version2).bits(selecting: 1)])
    #expect(second.variant(of: "E") == "C")
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == "active:C")
    #expect(device.analytics.summary(of: .deactivated) == ["E/B/color"])
    #expect(device.analytics.summary(of: .activated) == ["E/C/color"])
  }

  @Test func aDeviceOnAKeptVariantDrawsNothing() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("C", 1)])
    var device = try Device(seed: 6, token: 0.5)
    try device.launch([version1], draws: [WeightedSelection(version1).bits(selecting: 0)])
    let second = try device.launch([version2], draws: [])
    #expect(second.variant(of: "E") == "A")
  }

  /// B's devices split between A and C by the new weights (1 : 3), while A's
  /// devices all stay on A.
  @Test func theDeletedVariantsDevicesSplitByTheNewWeights() throws {
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    let version2 = try Fixtures.experiment(variants: [("A", 1), ("C", 3)])
    var random = SeededGenerator(seed: 33)
    var fromB = 0, fromBToC = 0
    for _ in 0..<20_000 {
      let storage = InMemoryStorage()
      let token = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
      let before = try LocalSource(experiments: [version1], token: token, storage: storage, random: &random)
      let after = try LocalSource(experiments: [version2], token: token, storage: storage, random: &random)
      if before.decisions == [.active(variant: 0)] {
        #expect(after.decisions == [.active(variant: 0)])
      } else {
        fromB += 1
        if after.decisions == [.active(variant: 1)] { fromBToC += 1 }
      }
    }
    #expect(withinBinomialBound(fromB, of: 20_000, p: 0.5))
    #expect(withinBinomialBound(fromBToC, of: fromB, p: 0.75))
  }
}
