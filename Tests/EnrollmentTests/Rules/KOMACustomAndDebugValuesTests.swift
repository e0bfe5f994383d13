import Enrollment
import Lab
import Testing

/// docs/rules/KOMACustomAndDebugValues.md: the app's custom value overrides
/// its debug value, which overrides the fetched one; either stands in for a
/// valid remote value, which is then not tracked as an experimental group,
/// while a missing or incorrect fetched value is still tracked.
@Suite struct KOMACustomAndDebugValuesTests {
  @Test func theSourcesInOrder() {
    let fetched = RemoteValue.string("a")
    let fallback = AssignmentValue.string("b")
    func source(custom: AssignmentValue?, debug: AssignmentValue?) -> RemoteValueService.Resolved {
      RemoteValueService.resolve(custom: custom, debug: debug, fetched: fetched, default: fallback)
    }
    #expect(source(custom: .string("c"), debug: .string("d")) == .init(value: .string("c"), source: .custom, trackedGroup: nil))
    #expect(source(custom: nil, debug: .string("d")) == .init(value: .string("d"), source: .debug, trackedGroup: nil))
    #expect(source(custom: nil, debug: nil) == .init(value: .string("a"), source: .remote, trackedGroup: "a"))
    #expect(
      RemoteValueService.resolve(custom: nil, debug: nil, fetched: nil, default: fallback)
        == .init(value: fallback, source: .default, trackedGroup: nil))
  }

  @Test func aStandInIsNotTrackedAsAGroupButAFallbackStillIs() {
    var service = RemoteValueService(defaults: ["paywallType": .string("b"), "featureEnabled": .string("false")])
    service.debugValues = ["paywallType": .string("qa")]
    service.customValues = ["featureEnabled": .string("true")]
    service.fetch(["paywallType": .string("a")])
    #expect(service.value(for: "paywallType")?.source == .debug)
    #expect(service.value(for: "featureEnabled")?.source == .custom)
    // paywallType is valid but stood in for: no group; featureEnabled is missing: tracked, custom value or not.
    #expect(service.getValues() == [.keyNotFound("featureEnabled")])
  }
}
