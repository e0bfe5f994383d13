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
    #expect(debug.activeVariants.map { "\($0.experiment)/\($0.variant.name)" } == ["Size/Large", "Theme/Blue"])
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

  /// "Switching between all available experiments and variants": a remote
  /// source lists the service's whole catalogue from its last fetch, not only
  /// what the device holds, each source under a section with its name.
  @Test func itListsTheRemoteServicesWholeCatalogue() throws {
    var remote = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    let other = RemoteExperiment(name: "F", variants: [
      RemoteVariant(name: "X", percentage: 50, values: ["KeyC": .string("x"), "KeyD": .string("x")]),
      RemoteVariant(name: "Y", percentage: 50, values: ["KeyC": .string("y"), "KeyD": .string("y")]),
    ])
    try remote.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE(), other]), assignments: ["E": "B"])
    let debug = DebugSource(sources: [try localSource(token: 0.2), remote])
    #expect(debug.sections.map(\.source) == ["Local", "Remote"])
    #expect(debug.sections[1].experiments.map(\.name) == ["E", "F"])
    #expect(debug.sections[1].experiments.map { $0.variants.map(\.name) } == [["A", "B"], ["X", "Y"]])
    #expect(debug.sections[1].experiments[1].variants[0].assignments == ["KeyC": .string("x"), "KeyD": .string("x")])
    #expect(debug.activeVariants.map { "\($0.experiment)/\($0.variant.name)" } == ["Theme/Blue", "E/B"])
  }

  /// The doc's warning: forcing an experiment that shares a key with an active
  /// one is an abnormal activation. It is served: the forced variant comes
  /// first and wins the key; the manager discards the other and says so.
  @Test func aForcedAbnormalActivationIsServedAndTheForcedVariantWinsItsKeys() throws {
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1), ("Red", 1)], range: Fixtures.range(0, 0.5), key: "color")
    let banner = try Fixtures.experiment("Banner", variants: [("Loud", 1)], range: Fixtures.range(0.5, 1), key: "color")
    var random = ScriptedGenerator([WeightedSelection(theme).bits(selecting: 0)])
    let local = try LocalSource(
      experiments: [theme, banner], token: ActiveExperimentsToken(0.2), storage: InMemoryStorage(), random: &random)
    var debug = DebugSource(sources: [local])
    try debug.force(variant: "Loud", of: "Banner")
    let delegate = RecordingDelegate()
    let manager = try AssignmentsManager(sources: [debug], storage: InMemoryStorage(), delegate: delegate)
    #expect(manager.activeAssignments["color"].map { "\($0.experiment)/\($0.variant)/\($0.source)" } == "Banner/Loud/Debug")
    #expect(delegate.clashes.map(\.description) == [
      "Banner/Loud (Debug) and Theme/Blue (Local) share 'color': served Banner, discarded Theme"
    ])
  }

  /// The Settings screen: Update per source with its Status (the last error),
  /// and Reset per source.
  @Test func settingsUpdateReportTheStatusAndResetPerSource() throws {
    struct FetchFailed: Error, CustomStringConvertible {
      var description: String { "the service did not answer" }
    }
    let remote = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    var debug = DebugSource(sources: [try localSource(token: 0.2), remote])
    #expect(debug.statuses.isEmpty)
    try debug.update(source: "Remote", as: RemoteSource.self) { _ in throw FetchFailed() }
    #expect(debug.statuses == ["Remote": .failed("the service did not answer")])
    #expect(debug.sections[1].experiments.isEmpty)
    try debug.update(source: "Remote", as: RemoteSource.self) {
      try $0.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "A"])
    }
    #expect(debug.statuses == ["Remote": .updated])
    #expect(debug.sections[1].experiments.map(\.name) == ["E"])

    try debug.force(variant: "Red", of: "Theme")
    try debug.force(variant: "B", of: "E")
    try debug.reset(source: "Local")
    #expect(debug.forcedVariants == ["E": "B"])
    #expect(throws: DebugSourceError.unknownSource("Nope")) { try debug.reset(source: "Nope") }
    #expect(throws: DebugSourceError.notOfType(source: "Local", type: "RemoteSource")) {
      try debug.update(source: "Local", as: RemoteSource.self) { _ in }
    }
  }
}
