import Lab
import LabTestKit
import Testing

@Suite struct DebugSourceTests {
  private func localSource(token: Double) throws -> LocalSource {
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1), ("Red", 1)], range: Fixtures.range(0, 0.5), key: "color")
    let size = try Fixtures.experiment("Size", variants: [("Small", 1), ("Large", 1)], range: Fixtures.range(0.5, 1), key: "size")
    var random = ScriptedGenerator([WeightedSelection(theme).bits(selecting: 0)])
    return try LocalSource(experiments: [theme, size], token: ActiveExperimentsToken(token), storage: InMemoryStorage(), random: &random)
  }

  @Test func itListsEveryExperimentAndVariantBySource() throws {
    let debug = DebugSource(sources: [try localSource(token: 0.2)])
    #expect(debug.sections.map(\.source) == ["Local"])
    #expect(debug.sections[0].experiments.map(\.name) == ["Theme", "Size"])
    #expect(debug.experiments.map { $0.variants.map(\.name) } == [["Blue", "Red"], ["Small", "Large"]])
  }

  @Test func withoutForcingItExposesTheWrappedSourcesVariants() throws {
    let debug = DebugSource(sources: [try localSource(token: 0.2)])
    #expect(debug.activeVariants.map { "\($0.experiment)/\($0.variant.name)/\($0.source)" } == ["Theme/Blue/Local"])
  }

  @Test func aForcedVariantReplacesTheActiveOneAndCanActivateAnInactiveExperiment() throws {
    var debug = DebugSource(sources: [try localSource(token: 0.2)])
    try debug.force(variant: "Red", of: "Theme")
    try debug.force(variant: "Large", of: "Size")
    let manager = try AssignmentsManager(sources: [debug], storage: InMemoryStorage(), delegate: nil)
    #expect(manager.activeAssignments["color"]?.variant == "Red")
    #expect(manager.activeAssignments["color"]?.source == "Debug")
    #expect(manager.activeAssignments["size"]?.variant == "Large")

    debug.clearForcedVariant(of: "Theme")
    #expect(debug.activeVariants.map { "\($0.experiment)/\($0.variant.name)" } == ["Theme/Blue", "Size/Large"])
    debug.reset()
    #expect(debug.forcedVariants.isEmpty)
    #expect(debug.activeVariants.map(\.variant.name) == ["Blue"])
  }

  @Test func forcingAnUnknownExperimentOrVariantIsAnError() throws {
    var debug = DebugSource(sources: [try localSource(token: 0.2)])
    #expect(throws: DebugSourceError.unknownExperiment("Nope")) { try debug.force(variant: "Blue", of: "Nope") }
    #expect(throws: DebugSourceError.unknownVariant("Green", experiment: "Theme", known: ["Blue", "Red"])) {
      try debug.force(variant: "Green", of: "Theme")
    }
  }
}
