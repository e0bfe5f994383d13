import Enrollment
import Lab
import Testing

/// docs/rules/KOMARemoteValues.md: custom over debug over fetched over the
/// in-app default; baseline-flagged values tracked as the baseline group;
/// missing keys and incorrect values fall back and are tracked, once per
/// fetch-and-read cycle.
@Suite struct KOMARemoteValuesTests {
  private let defaults: [String: AssignmentValue] = ["paywall_type": .string("b"), "a_feature_enabled": .string("false")]

  @Test func precedenceIsCustomThenDebugThenFetchedThenDefault() {
    var service = RemoteValueService(defaults: defaults)
    #expect(service.value(for: "paywall_type")?.value == .string("b"))
    #expect(service.value(for: "paywall_type")?.source == .default)
    service.fetch(["paywall_type": .string("c")])
    #expect(service.value(for: "paywall_type")?.source == .remote)
    service.debugValues["paywall_type"] = .string("a")
    #expect(service.value(for: "paywall_type")?.value == .string("a"))
    #expect(service.value(for: "paywall_type")?.source == .debug)
    service.customValues["paywall_type"] = .string("x")
    #expect(service.value(for: "paywall_type")?.value == .string("x"))
    #expect(service.value(for: "paywall_type")?.source == .custom)
    #expect(service.value(for: "unknown_key") == nil)
  }

  /// "a_baseline" shows "a" and is tracked as the baseline group.
  @Test func aBaselineFlaggedValueShowsItsVariantAndTracksTheBaseline() {
    var service = RemoteValueService(defaults: defaults)
    service.fetch(["paywall_type": .string("a_baseline"), "a_feature_enabled": .string("true")])
    #expect(service.value(for: "paywall_type") == .init(value: .string("a"), source: .remote, trackedGroup: "baseline"))
    #expect(service.value(for: "a_feature_enabled")?.trackedGroup == "true")
    #expect(service.getValues() == [
      .experimentalGroup(key: "a_feature_enabled", group: "true"), .experimentalGroup(key: "paywall_type", group: "baseline"),
    ])
  }

  @Test func missingAndIncorrectValuesFallBackAndAreTrackedOncePerFetch() {
    var service = RemoteValueService(defaults: defaults)
    service.fetch(["paywall_type": .number(3)])
    #expect(service.value(for: "paywall_type")?.value == .string("b"))
    #expect(service.value(for: "paywall_type")?.source == .default)
    #expect(service.getValues() == [.keyNotFound("a_feature_enabled"), .incorrectValue("paywall_type")])
    #expect(service.getValues() == [])
    service.fetch(["paywall_type": .string("c")])
    #expect(service.getValues() == [.keyNotFound("a_feature_enabled"), .experimentalGroup(key: "paywall_type", group: "c")])
  }
}
