import Lab
import Testing

/// docs/rules/RemoteKeysDeclaration.md: an experiment is recognised only
/// through a valid `__Keys_<experiment>`; otherwise it is logged, not guessed.
@Suite struct RemoteKeysDeclarationTests {
  @Test func anExperimentWithoutADeclarationIsNotExposedAndIsLogged() throws {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    let configuration = RemoteConfiguration(experiments: [RemoteFixtures.experimentE()])
    try source.apply(configuration, assignments: ["E": "B"])
    #expect(source.activeVariants.isEmpty)
    #expect(source.lastFetch.unrecognised == ["E": .missing(variable: "__Keys_E")])
    #expect("\(RemoteDeclarationError.missing(variable: "__Keys_E"))" == "__Keys_E is missing: add it as a JSON array of the experiment's keys")
  }

  @Test(arguments: [RemoteValue.json("not json"), .json("{\"KeyC\": 1}"), .json("[]"), .string("[\"KeyC\"]")])
  func aMalformedDeclarationIsNotGuessed(_ declaration: RemoteValue) throws {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    let configuration = RemoteConfiguration(experiments: [RemoteFixtures.experimentE()], variables: ["__Keys_E": declaration])
    try source.apply(configuration, assignments: ["E": "B"])
    #expect(source.activeVariants.isEmpty)
    #expect(source.lastFetch.unrecognised == ["E": .malformed(variable: "__Keys_E", value: declaration)])
  }

  @Test func theDeclarationDecidesTheKeys() throws {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    let configuration = RemoteConfiguration(
      experiments: [RemoteFixtures.experimentE()], variables: ["__Keys_E": .json("[\"KeyC\"]")])
    try source.apply(configuration, assignments: ["E": "B"])
    #expect(source.activeVariants.map(\.assignments) == [[
      Assignment(key: "KeyC", value: .string("bar"), variant: "B", experiment: "E", source: "Remote")
    ]])
  }
}
