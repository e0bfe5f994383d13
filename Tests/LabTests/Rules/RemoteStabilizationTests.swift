import Lab
import LabTestKit
import Testing

/// docs/rules/RemoteStabilization.md: once stabilized, assignments no longer
/// change when the service's do, and experiments added later are not exposed.
@Suite struct RemoteStabilizationTests {
  @Test func beforeStabilizationTheDeviceFollowsTheService() throws {
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "B"])
    try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE(keyCOfB: "baz")]), assignments: ["E": "B"])
    #expect(source.stored["E"]?.values["KeyC"] == .string("baz"))
    try source.apply(RemoteFixtures.configuration([]), assignments: [:])
    #expect(source.activeVariants.isEmpty)
  }

  @Test func afterStabilizationNothingTheServiceChangesReachesTheDevice() throws {
    let storage = InMemoryStorage()
    var source = try RemoteSource(defaults: RemoteFixtures.defaults, storage: storage)
    try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "B"])
    try source.stabilizeUserExperience()
    let newcomer = RemoteExperiment(name: "F", variants: [RemoteVariant(name: "X", percentage: 100, values: ["KeyZ": .string("z")])])
    let changed = RemoteFixtures.configuration([RemoteFixtures.experimentE(keyCOfB: "baz")]).adding(newcomer, keys: ["KeyZ"])
    try source.apply(changed, assignments: ["E": "A", "F": "X"])
    #expect(source.activeVariants.map(\.experiment) == ["E"])
    #expect(source.stored["E"] == RemoteSource.StoredExperiment(
      variant: "B", values: ["KeyC": .string("bar"), "KeyD": .string("d-b")], keys: ["KeyC", "KeyD"]))
    // Even an experiment the service removed stays.
    try source.apply(RemoteConfiguration(experiments: []), assignments: [:])
    #expect(source.activeVariants.map(\.experiment) == ["E"])
    // And it is persistent: the next launch restores it.
    let relaunched = try RemoteSource(defaults: RemoteFixtures.defaults, storage: storage)
    #expect(relaunched.isStabilized)
    #expect(relaunched.stored == source.stored)
  }

  @Test func theManagerForwardsStabilizeToTheRemoteSource() throws {
    var remote = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    try remote.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "A"])
    var manager = try AssignmentsManager(sources: [remote], storage: InMemoryStorage(), delegate: nil)
    try manager.stabilizeUserExperienceAssignments()
    #expect((manager.sources[0] as? RemoteSource)?.isStabilized == true)
    #expect(manager.activeAssignments["KeyC"]?.value == .string("foo"))
  }
}

@Suite struct RemoteThroughTheManagerTests {
  /// An app applies each fetch through the manager, which reports what changed.
  @Test func aFetchAppliedThroughTheManagerIsReported() throws {
    let delegate = RecordingDelegate()
    let remote = try RemoteSource(defaults: RemoteFixtures.defaults, storage: InMemoryStorage())
    var manager = try AssignmentsManager(sources: [remote], storage: InMemoryStorage(), delegate: delegate)
    #expect(manager.activeAssignments.isEmpty)
    try manager.updateSource(at: 0, as: RemoteSource.self) { source in
      try source.apply(RemoteFixtures.configuration([RemoteFixtures.experimentE()]), assignments: ["E": "B"])
    }
    #expect(manager.activeAssignments["KeyC"]?.value == .string("bar"))
    #expect(delegate.summary(of: .activated) == ["E/B/KeyC", "E/B/KeyD"])
  }
}
