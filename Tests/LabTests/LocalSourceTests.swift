import Lab
import LabTestKit
import Testing

@Suite struct LocalSourceTests {
  @Test func anExperimentIsActiveOnlyWhenTheTokenIsInItsRange() throws {
    let inside = try Fixtures.experiment("Inside", variants: [("A", 1)], range: Fixtures.range(0.2, 0.6), key: "a")
    let outside = try Fixtures.experiment("Outside", variants: [("B", 1)], range: Fixtures.range(0.6, 1), key: "b")
    var random = ScriptedGenerator([0])
    let source = try LocalSource(
      experiments: [inside, outside], token: ActiveExperimentsToken(0.4), storage: InMemoryStorage(), random: &random)
    #expect(source.decisions == [.active(variant: 0), .inactive])
    #expect(source.activeVariants.map(\.experiment) == ["Inside"])
    #expect(random.remaining == 0)
  }

  @Test func activityAndVariantNamesArePersisted() throws {
    let storage = InMemoryStorage()
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1), ("Red", 1)], key: "color")
    let other = try Fixtures.experiment("Other", variants: [("X", 1)], range: Fixtures.range(0, 0.1), key: "size")
    var random = ScriptedGenerator([WeightedSelection(theme).bits(selecting: 1)])
    _ = try LocalSource(experiments: [theme, other], token: ActiveExperimentsToken(0.5), storage: storage, random: &random)
    #expect(storage.snapshot == ["Lab.LocalSource.Theme": "active:Red", "Lab.LocalSource.Other": "inactive"])

    var noDraws = ScriptedGenerator([])
    let again = try LocalSource(experiments: [theme, other], token: ActiveExperimentsToken(0.5), storage: storage, random: &noDraws)
    #expect(again.decisions == [.active(variant: 1), .inactive])
  }

  @Test func aRecordSurvivesReorderedVariants() throws {
    let storage = InMemoryStorage()
    let version1 = try Fixtures.experiment(variants: [("A", 1), ("B", 1)])
    let version2 = try Fixtures.experiment(variants: [("B", 1), ("A", 1)])
    var random = ScriptedGenerator([WeightedSelection(version1).bits(selecting: 1)])
    _ = try LocalSource(experiments: [version1], token: ActiveExperimentsToken(0.5), storage: storage, random: &random)
    let second = try LocalSource(experiments: [version2], token: ActiveExperimentsToken(0.5), storage: storage, random: &random)
    #expect(second.activeVariants.map(\.variant.name) == ["B"])
  }

  @Test func twoExperimentsWithOneNameAreRefused() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1)])
    var random = SeededGenerator(seed: 1)
    #expect(throws: LocalSourceError.duplicateExperiment("E")) {
      try LocalSource(experiments: [experiment, experiment], token: ActiveExperimentsToken(0), storage: InMemoryStorage(), random: &random)
    }
  }

  @Test func anUnreadableRecordIsAnError() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1)])
    let storage = InMemoryStorage(["Lab.LocalSource.E": "maybe"])
    var random = SeededGenerator(seed: 1)
    #expect(throws: StorageError(key: "Lab.LocalSource.E", value: "maybe", expected: "'inactive' or 'active:<variant>'")) {
      try LocalSource(experiments: [experiment], token: ActiveExperimentsToken(0), storage: storage, random: &random)
    }
  }

  @Test func otherKeysOfTheStorageAreLeftAlone() throws {
    let storage = InMemoryStorage(["App.Setting": "on", "Lab.LocalSource.Gone": "active:A"])
    var random = SeededGenerator(seed: 1)
    _ = try LocalSource(experiments: [], token: ActiveExperimentsToken(0), storage: storage, random: &random)
    #expect(storage.snapshot == ["App.Setting": "on"])
  }
}
