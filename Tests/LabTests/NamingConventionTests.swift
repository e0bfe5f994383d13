import Lab
import Testing

@Suite struct NamingConventionTests {
  @Test(arguments: [
    ("subscribeScreenFontColor", true), ("theme", true), ("fontSize12", true),
    ("SubscribeScreen", false), ("font_size", false), ("", false), ("1font", false), ("fönt", false),
  ])
  func keysAreLowerCamelCase(name: String, accepted: Bool) {
    #expect(NamingConvention.lowerCamelCase.accepts(name) == accepted)
  }

  @Test(arguments: [
    ("SubscriptionScreenThemeDracula", true), ("B", true), ("Variant2", true),
    ("baseline", false), ("SubscribeOnLaunchImage_b", false), ("Dark Mode", false),
  ])
  func namesAreUpperCamelCase(name: String, accepted: Bool) {
    #expect(NamingConvention.upperCamelCase.accepts(name) == accepted)
  }

  /// The doc's own local-source example breaks the conventions three times.
  @Test func theDocsExampleBreaksTheConventions() throws {
    let experiment = try Experiment(
      name: "subscriptionPromptImage", keys: ["subscriptionPromptImageName"],
      variants: [
        Variant(name: "baseline", weight: 2, assignments: ["subscriptionPromptImageName": .string("SubscribeOnLaunchImage.jpg")]),
        Variant(name: "SubscribeOnLaunchImage_b", assignments: ["subscriptionPromptImageName": .string("SubscribeOnLaunchImage_b.jpg")]),
        Variant(name: "SubscribeOnLaunchImage_c", assignments: ["subscriptionPromptImageName": .string("SubscribeOnLaunchImage_c.jpg")]),
      ],
      activeTokenRange: try TokenRange(lower: 0.2, upper: 0.4))
    #expect(experiment.selectionProbabilities == [0.5, 0.25, 0.25])
    let violations = try experiment.checkNaming(.lenient)
    #expect(violations.map(\.description) == [
      "experiment 'subscriptionPromptImage' should be UpperCamelCase, e.g. 'SubscriptionPromptImage'",
      "variant 'baseline' of experiment subscriptionPromptImage should be UpperCamelCase, e.g. 'Baseline'",
      "variant 'SubscribeOnLaunchImage_b' of experiment subscriptionPromptImage should be UpperCamelCase, e.g. 'SubscribeOnLaunchImageB'",
      "variant 'SubscribeOnLaunchImage_c' of experiment subscriptionPromptImage should be UpperCamelCase, e.g. 'SubscribeOnLaunchImageC'",
    ])
    #expect(throws: NamingError(violations: violations)) { try experiment.checkNaming(.strict) }
  }
}
