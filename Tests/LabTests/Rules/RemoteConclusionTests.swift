import Lab
import Testing

/// docs/rules/RemoteConclusion.md: concluding gives the winner 100%; new
/// devices get it; stabilized devices keep their old variant; devices assigned
/// but not stabilized move to the winner at their next successful fetch.
@Suite struct RemoteConclusionTests {
  private let token = ActiveExperimentsToken(bits: 0)

  @Test func theServiceGivesTheWinnerToEveryDevice() {
    let concluded = RemoteFixtures.experimentE().concluded(winner: "A")
    #expect(concluded.variants.map(\.percentage) == [100, 0])
    #expect(concluded.assignment(previous: nil, attributes: [:], token: token, bits: .max) == "A")
    #expect(concluded.assignment(previous: "B", attributes: [:], token: token, bits: .max) == "A")
  }

  /// The audience still holds: a device it never admitted gets nothing, so a
  /// concluded experiment does not reach devices of an experiment it shares keys with.
  @Test func theWinnerStaysWithinTheAudience() throws {
    var experiment = RemoteFixtures.experimentE()
    experiment.audience = RemoteAudience(tokenRange: try TokenRange(lower: 0.5, upper: 1))
    let concluded = experiment.concluded(winner: "A")
    #expect(concluded.assignment(previous: nil, attributes: [:], token: token, bits: 0) == nil)
    #expect(concluded.assignment(previous: nil, attributes: [:], token: ActiveExperimentsToken(bits: .max), bits: 0) == "A")
  }

  @Test func aStabilizedDeviceKeepsItsOldVariant() throws {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "B"])
    try source.stabilizeUserExperience()
    let concluded = RemoteFixtures.experimentE().concluded(winner: "A")
    try source.apply(RemoteFixtures.configuration([concluded]), assignments: ["E": "A"])
    #expect(source.stored["E"]?.variant == "B")
  }

  @Test func anAssignedButUnstabilizedDeviceMovesToTheWinner() throws {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "B"])
    let concluded = RemoteFixtures.experimentE().concluded(winner: "A")
    let winner = concluded.assignment(previous: "B", attributes: [:], token: token, bits: 0)
    try source.apply(RemoteFixtures.configuration([concluded]), assignments: ["E": try #require(winner)])
    #expect(source.stored["E"]?.variant == "A")
    #expect(source.stored["E"]?.values["KeyC"] == .string("foo"))
  }
}
