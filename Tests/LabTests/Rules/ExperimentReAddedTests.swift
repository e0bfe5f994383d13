import Lab
import LabTestKit
import Testing

/// Rule 2 (docs/rules/ExperimentReAdded.md): a version that removes an
/// experiment deletes the device's record; a later version that brings it back
/// selects afresh among all variants.
@Suite struct ExperimentReAddedTests {
  @Test func removalDeletesTheRecordAndTheReturnSelectsAfresh() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1), ("B", 1), ("C", 1)])
    let selection = WeightedSelection(experiment)
    var device = try Device(seed: 3, token: 0.25)

    let version1 = try device.launch([experiment], draws: [selection.bits(selecting: 0)])
    #expect(version1.variant(of: "E") == "A")
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == "active:A")

    let version2 = try device.launch([], draws: [])
    #expect(version2.activeAssignments.isEmpty)
    #expect(device.storage.value(forKey: "Lab.LocalSource.E") == nil)
    #expect(device.analytics.summary(of: .deactivated) == ["E/A/color"])

    let version3 = try device.launch([experiment], draws: [selection.bits(selecting: 2)])
    #expect(version3.variant(of: "E") == "C")
  }

  @Test func aDeviceThatSkipsTheRemovingVersionKeepsItsVariant() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1), ("B", 1), ("C", 1)])
    var device = try Device(seed: 4, token: 0.25)
    try device.launch([experiment], draws: [WeightedSelection(experiment).bits(selecting: 1)])
    let version3 = try device.launch([experiment], draws: [])
    #expect(version3.variant(of: "E") == "B")
  }

  /// Over a population the share of returning devices whose variant changed is
  /// 1 − Σ pᵢ²: the chance that two independent draws differ.
  @Test func theShareOfReturningDevicesThatChangeVariantIsOneMinusSumOfSquares() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1), ("B", 2), ("C", 2)])
    let expected = 1 - experiment.selectionProbabilities.reduce(0) { $0 + $1 * $1 }
    #expect(abs(expected - 0.64) < 1e-12)
    let devices = 20_000
    var changed = 0
    var random = SeededGenerator(seed: 20_261_122)
    for _ in 0..<devices {
      let storage = InMemoryStorage()
      let token = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
      let before = try LocalSource(experiments: [experiment], token: token, storage: storage, random: &random)
      _ = try LocalSource(experiments: [], token: token, storage: storage, random: &random)
      let after = try LocalSource(experiments: [experiment], token: token, storage: storage, random: &random)
      if before.decisions != after.decisions { changed += 1 }
    }
    #expect(withinBinomialBound(changed, of: devices, p: expected))
  }
}
