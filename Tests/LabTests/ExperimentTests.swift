import Lab
import Testing

@Suite struct ExperimentTests {
  private func variant(_ name: String, weight: Int = 1, _ assignments: [String: AssignmentValue]) -> Variant {
    Variant(name: name, weight: weight, assignments: assignments)
  }

  @Test func theDocsExampleIsValidAndItsFirstVariantIsTheBaseline() throws {
    let experiment = try Experiment(
      name: "SubscriptionScreenTheme", keys: ["subscribeScreenFontSize", "subscribeScreenFontColor"],
      variants: [
        variant("SubscriptionScreenThemeSmallBlue", ["subscribeScreenFontSize": .number(10), "subscribeScreenFontColor": .string("blue")]),
        variant("SubscriptionScreenThemeLargeBlue", ["subscribeScreenFontSize": .number(12), "subscribeScreenFontColor": .string("blue")]),
        variant("SubscriptionScreenThemeSmallRed", ["subscribeScreenFontSize": .number(10), "subscribeScreenFontColor": .string("yellow")]),
        variant("SubscriptionScreenThemeLargeRed", ["subscribeScreenFontSize": .number(12), "subscribeScreenFontColor": .string("yellow")]),
      ])
    #expect(experiment.baseline == "SubscriptionScreenThemeSmallBlue")
    #expect(experiment.baselineVariant.assignments["subscribeScreenFontSize"] == .number(10))
    #expect(experiment.selectionProbabilities == [0.25, 0.25, 0.25, 0.25])
    #expect(experiment.namingViolations.isEmpty)
  }

  @Test func weightsTwoOneOneGiveHalfAQuarterAndAQuarter() throws {
    let experiment = try Fixtures.experiment(variants: [("Baseline", 2), ("B", 1), ("C", 1)])
    #expect(experiment.selectionProbabilities == [0.5, 0.25, 0.25])
  }

  @Test(arguments: [
    (["color"], [("A", 1, ["color"]), ("B", 1, [])], ExperimentError.Field.variantAssignments(1),
     "variant B must supply a value for key 'color'"),
    (["color"], [("A", 1, ["color", "size"])], .variantAssignments(0),
     "'size' is not a key of E: add it to keys or remove it"),
    (["color"], [("A", 0, ["color"])], .variantWeight(0), "must be greater than 0"),
    (["color"], [("A", -2, ["color"])], .variantWeight(0), "must be greater than 0"),
    (["color"], [("A", 1, ["color"]), ("A", 1, ["color"])], .variantName(1), "'A' is used by another variant of E"),
    (["color"], [], .variants, "must list at least one variant"),
    ([], [("A", 1, [])], .keys, "must list at least one key"),
    (["color", "color"], [("A", 1, ["color"])], .key(1), "'color' is listed twice"),
  ] as [([String], [(String, Int, [String])], ExperimentError.Field, String)])
  func invalidDefinitionsNameTheFieldAndTheFix(
    keys: [String], variants: [(String, Int, [String])], field: ExperimentError.Field, problem: String
  ) {
    let variants = variants.map { name, weight, keys in
      Variant(name: name, weight: weight, assignments: Dictionary(uniqueKeysWithValues: keys.map { ($0, .string("x")) }))
    }
    #expect(throws: ExperimentError(experiment: "E", field: field, problem: problem)) {
      try Experiment(name: "E", keys: keys, variants: variants)
    }
  }

  @Test func theBaselineMustBeOneOfTheVariants() {
    #expect(throws: ExperimentError(experiment: "E", field: .baseline, problem: "'Z' must be the name of one of the variants")) {
      try Fixtures.experiment(variants: [("A", 1)]).withBaseline("Z")
    }
  }

  @Test func errorsReadAsOneSentence() {
    let error = ExperimentError(experiment: "E", field: .variantWeight(1), problem: "must be greater than 0")
    #expect("\(error)" == "experiment E: variants[1].weight: must be greater than 0")
  }
}

extension Experiment {
  fileprivate func withBaseline(_ baseline: String) throws -> Experiment {
    try Experiment(name: name, keys: keys, variants: variants, baseline: baseline, activeTokenRange: activeTokenRange)
  }
}
