import Lab
import Testing

/// docs/rules/RemoteValueFallback.md: a key missing from the delivered
/// variant, or a value of the wrong type, falls back to the app's default and
/// is counted as "key not found" or "incorrect value".
@Suite struct RemoteValueFallbackTests {
  @Test func theRuleOnItsOwn() {
    #expect(RemoteRules.value(delivered: nil, default: .number(3)) == (.number(3), .keyNotFound))
    #expect(RemoteRules.value(delivered: .string("3"), default: .number(3)) == (.number(3), .incorrectValue))
    #expect(RemoteRules.value(delivered: .bool(true), default: .string("on")) == (.string("on"), .incorrectValue))
    #expect(RemoteRules.value(delivered: .json("{}"), default: nil) == (nil, .incorrectValue))
    #expect(RemoteRules.value(delivered: .number(5), default: .number(3)) == (.number(5), nil))
    #expect(RemoteRules.value(delivered: .string("x"), default: nil) == (.string("x"), nil))
  }

  @Test func theSourceCountsEachFallbackAndUsesTheDefault() throws {
    var source = try RemoteSource(
      defaults: ["fontSize": .number(12), "title": .string("Go Premium")], storage: InMemoryStorage())
    let experiment = RemoteExperiment(name: "Paywall", variants: [
      RemoteVariant(name: "Big", percentage: 100, values: ["fontSize": .string("huge")])
    ])
    try source.apply(RemoteConfiguration(experiments: []).adding(experiment, keys: ["fontSize", "title"]), assignments: ["Paywall": "Big"])
    #expect(source.stored["Paywall"]?.values == ["fontSize": .number(12), "title": .string("Go Premium")])
    #expect(source.lastFetch.fallbacks == ["Paywall.fontSize": .incorrectValue, "Paywall.title": .keyNotFound])
  }
}
