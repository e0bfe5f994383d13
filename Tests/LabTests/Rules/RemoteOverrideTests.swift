import Lab
import Testing

/// docs/rules/RemoteOverride.md, with the doc's own example: experiment E,
/// variants A and B, keys KeyC and KeyD; A sets KeyC to foo, B to bar. With
/// `__Override_E` = ["KeyC"], every change of B's KeyC reaches every device
/// holding B, stabilized or not.
@Suite struct RemoteOverrideTests {
  private func stabilizedDevice(on variant: String) throws -> RemoteSource {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": variant])
    try source.stabilizeUserExperience()
    return source
  }

  private func overridden(keyCOfB: String, keyDOfB: String = "d-b") -> RemoteConfiguration {
    var experiment = RemoteFixtures.experimentE(keyCOfB: keyCOfB)
    experiment.variants[1].values["KeyD"] = .string(keyDOfB)
    var configuration = RemoteFixtures.configuration([experiment])
    configuration.variables["__Override_E"] = .json("[\"KeyC\"]")
    return configuration
  }

  @Test func changingBsKeyCReachesEveryDeviceHoldingB() throws {
    var b = try stabilizedDevice(on: "B")
    try b.apply(overridden(keyCOfB: "qux", keyDOfB: "changed"), assignments: ["E": "B"])
    #expect(b.stored["E"]?.values == ["KeyC": .string("qux"), "KeyD": .string("d-b")])
    #expect(b.lastFetch.overridden == ["E.KeyC"])
    try b.apply(overridden(keyCOfB: "quux"), assignments: ["E": "B"])
    #expect(b.stored["E"]?.values["KeyC"] == .string("quux"))
  }

  @Test func devicesHoldingAKeepTheirValues() throws {
    var a = try stabilizedDevice(on: "A")
    try a.apply(overridden(keyCOfB: "qux"), assignments: ["E": "A"])
    #expect(a.stored["E"]?.values == ["KeyC": .string("foo"), "KeyD": .string("d-a")])
  }

  /// The override follows the variant the device holds, even when the service
  /// would now give it another one.
  @Test func theOverrideReadsTheDevicesOwnVariant() throws {
    var b = try stabilizedDevice(on: "B")
    try b.apply(overridden(keyCOfB: "qux"), assignments: ["E": "A"])
    #expect(b.stored["E"]?.variant == "B")
    #expect(b.stored["E"]?.values["KeyC"] == .string("qux"))
  }

  @Test func withoutTheOverrideVariableAStabilizedDeviceSeesNoChange() throws {
    var b = try stabilizedDevice(on: "B")
    try b.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE(keyCOfB: "qux")]), assignments: ["E": "B"])
    #expect(b.stored["E"]?.values["KeyC"] == .string("bar"))
    #expect(b.lastFetch.overridden.isEmpty)
  }
}
