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

  @Test func twoActiveExperimentsSharingAKeyAreRefused() throws {
    let first = try Fixtures.experiment("Beta", variants: [("A", 1)], key: "paywallTitle")
    let second = try Fixtures.experiment("Alpha", variants: [("B", 1)], key: "paywallTitle")
    let error = AssignmentsManagerError.sharedKey("paywallTitle", experiments: ["Alpha", "Beta"])
    #expect(throws: error) {
      try AssignmentsManager(
        sources: [FixedSource(experiments: [first]), FixedSource(experiments: [second])],
        storage: InMemoryStorage(), delegate: nil)
    }
    #expect("\(error)" == "experiments Alpha and Beta are both active and share the key 'paywallTitle': "
      + "give them disjoint active token ranges or rename the key in one of them")
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
