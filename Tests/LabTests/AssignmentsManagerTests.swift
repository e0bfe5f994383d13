import Lab
import LabTestKit
import Testing

/// A source with fixed active variants, and a stabilizing one that records the hint.
private struct FixedSource: AssignmentsSource {
  var name = "Fixed"
  var experiments: [Experiment]
  var activeVariants: [ActiveVariant] {
    experiments.map { ActiveVariant(experiment: $0.name, variant: $0.variants[0], source: name) }
  }
}

private struct StabilizableSource: StabilizingSource {
  var name = "Remote"
  var experiments: [Experiment]
  var stabilized = false
  var activeVariants: [ActiveVariant] {
    experiments.map { ActiveVariant(experiment: $0.name, variant: $0.variants[stabilized ? 0 : 1], source: name) }
  }
  mutating func stabilizeUserExperience() { stabilized = true }
}

@Suite struct AssignmentsManagerTests {
  @Test func assignmentsOfAllSourcesAreMergedByKey() throws {
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1)], key: "color")
    let size = try Fixtures.experiment("Size", variants: [("Large", 1)], key: "fontSize")
    let manager = try AssignmentsManager(
      sources: [FixedSource(experiments: [theme]), FixedSource(name: "Other", experiments: [size])],
      storage: InMemoryStorage(), delegate: nil)
    #expect(manager.activeAssignments == [
      "color": Assignment(key: "color", value: .string("blue"), variant: "Blue", experiment: "Theme", source: "Fixed"),
      "fontSize": Assignment(key: "fontSize", value: .string("large"), variant: "Large", experiment: "Size", source: "Other"),
    ])
  }

  /// Sources in the manager's order: the earlier source's variant keeps the
  /// shared key, the later one is discarded whole, and an unrelated experiment
  /// of the same later source is still served.
  @Test func twoActiveExperimentsSharingAKeyServeTheFirstAndReportTheClash() throws {
    let beta = try Fixtures.experiment("Beta", variants: [("A", 1)], key: "paywallTitle")
    let alpha = try Fixtures.experiment("Alpha", variants: [("B", 1)], key: "paywallTitle")
    let size = try Fixtures.experiment("Size", variants: [("Large", 1)], key: "fontSize")
    let delegate = RecordingDelegate()
    let manager = try AssignmentsManager(
      sources: [FixedSource(experiments: [beta]), FixedSource(name: "Other", experiments: [alpha, size])],
      storage: InMemoryStorage(), delegate: delegate)
    #expect(manager.activeAssignments.mapValues(\.experiment) == ["paywallTitle": "Beta", "fontSize": "Size"])
    let clash = KeyClash(
      keys: ["paywallTitle"],
      served: ActiveVariant(experiment: "Beta", variant: beta.variants[0], source: "Fixed"),
      discarded: ActiveVariant(experiment: "Alpha", variant: alpha.variants[0], source: "Other"))
    #expect(delegate.clashes == [clash])
    #expect(manager.clashes == [clash])
    #expect(delegate.summary(of: .activated) == ["Size/Large/fontSize", "Beta/A/paywallTitle"])
    #expect("\(clash)" == "Beta/A (Fixed) and Alpha/B (Other) share 'paywallTitle': served Beta, discarded Alpha")
  }

  /// A variant that meets a taken key loses every key, not only the shared one.
  @Test func aDiscardedVariantLosesAllItsKeys() throws {
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1)], key: "color")
    let banner = try Experiment(
      name: "Banner", keys: ["color", "text"],
      variants: [Variant(name: "Loud", assignments: ["color": .string("red"), "text": .string("SALE")])])
    let manager = try AssignmentsManager(
      sources: [FixedSource(experiments: [theme, banner])], storage: InMemoryStorage(), delegate: nil)
    #expect(manager.activeAssignments.mapValues(\.experiment) == ["color": "Theme"])
    #expect(manager.clashes.map(\.discarded.experiment) == ["Banner"])
  }

  /// A discarded variant takes no key, so it cannot block a later one: A takes
  /// `k1`; B (`k1`, `k2`) is discarded; C (`k2`) is served.
  @Test func aDiscardedVariantDoesNotBlockALaterOne() throws {
    func experiment(_ name: String, keys: [String]) throws -> Experiment {
      try Experiment(
        name: name, keys: keys,
        variants: [Variant(name: "V", assignments: Dictionary(uniqueKeysWithValues: keys.map { ($0, .string(name)) }))])
    }
    let manager = try AssignmentsManager(
      sources: [FixedSource(experiments: [
        try experiment("A", keys: ["k1"]), try experiment("B", keys: ["k1", "k2"]), try experiment("C", keys: ["k2"]),
      ])],
      storage: InMemoryStorage(), delegate: nil)
    #expect(manager.activeAssignments.mapValues(\.experiment) == ["k1": "A", "k2": "C"])
    #expect(manager.clashes.map { "\($0.served.experiment)>\($0.discarded.experiment):\($0.keys)" } == ["A>B:[\"k1\"]"])
  }

  @Test func activationIsReportedOnceAndDeactivationWhenTheExperimentGoes() throws {
    let storage = InMemoryStorage()
    let delegate = RecordingDelegate()
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1)], key: "color")
    _ = try AssignmentsManager(sources: [FixedSource(experiments: [theme])], storage: storage, delegate: delegate)
    _ = try AssignmentsManager(sources: [FixedSource(experiments: [theme])], storage: storage, delegate: delegate)
    #expect(delegate.summary(of: .activated) == ["Theme/Blue/color"])
    _ = try AssignmentsManager(sources: [FixedSource(experiments: [])], storage: storage, delegate: delegate)
    #expect(delegate.summary(of: .deactivated) == ["Theme/Blue/color"])
    #expect(delegate.events.count == 2)
  }

  @Test func affectedUserReportsCarryTheReason() throws {
    let delegate = RecordingDelegate()
    let theme = try Fixtures.experiment("Theme", variants: [("Blue", 1)], key: "color")
    let manager = try AssignmentsManager(sources: [FixedSource(experiments: [theme])], storage: InMemoryStorage(), delegate: delegate)
    delegate.removeAll()
    let assignment = try #require(manager.activeAssignments["color"])
    manager.reportAssignmentAffectedUser(assignment, reason: .displayed)
    manager.reportAssignmentAffectedUser(assignment, reason: "tapped")
    #expect(delegate.events == [
      AnalyticsEvent(assignment: assignment, reason: .displayed),
      AnalyticsEvent(assignment: assignment, reason: AnalyticsEvent.Reason(rawValue: "tapped")),
    ])
  }

  @Test func stabilizeIsForwardedToTheSourcesThatSupportIt() throws {
    let delegate = RecordingDelegate()
    let remote = try Fixtures.experiment("Remote", variants: [("Frozen", 1), ("Live", 1)], key: "title")
    let local = try Fixtures.experiment("Local", variants: [("A", 1)], key: "color")
    var manager = try AssignmentsManager(
      sources: [StabilizableSource(experiments: [remote]), FixedSource(experiments: [local])],
      storage: InMemoryStorage(), delegate: delegate)
    #expect(manager.activeAssignments["title"]?.variant == "Live")
    delegate.removeAll()
    try manager.stabilizeUserExperienceAssignments()
    #expect((manager.sources[0] as? StabilizableSource)?.stabilized == true)
    #expect(manager.activeAssignments["title"]?.variant == "Frozen")
    #expect(manager.activeAssignments["color"]?.variant == "A")
    #expect(delegate.summary(of: .deactivated) == ["Remote/Live/title"])
    #expect(delegate.summary(of: .activated) == ["Remote/Frozen/title"])
  }

  @Test func aCorruptRecordOfActiveAssignmentsIsAnError() {
    let storage = InMemoryStorage(["Lab.AssignmentsManager.ActiveAssignments": "{"])
    #expect(throws: StorageError.self) {
      try AssignmentsManager(sources: [], storage: storage, delegate: nil)
    }
  }
}
