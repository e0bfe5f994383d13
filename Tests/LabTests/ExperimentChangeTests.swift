import Lab
import Testing

@Suite struct ExperimentChangeTests {
  @Test func addingAndRemovingAreNamed() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1)])
    #expect(ExperimentChange.between(nil, experiment) == [.added])
    #expect(ExperimentChange.between(experiment, nil) == [.removed])
    #expect(ExperimentChange.between(experiment, experiment).isEmpty)
  }

  @Test func everyChangeToAVariantSetIsNamed() throws {
    let old = try Fixtures.experiment(variants: [("A", 1), ("B", 1), ("C", 1)], range: Fixtures.range(0, 0.5))
    var variants = try Fixtures.experiment(variants: [("A", 2), ("C", 1), ("D", 1)]).variants
    variants[1].assignments["color"] = .string("cyan")
    let new = try Experiment(
      name: "E", keys: ["color"], variants: variants, baseline: "C", activeTokenRange: try Fixtures.range(0, 0.4))
    #expect(ExperimentChange.between(old, new) == [
      .assignmentsChanged(variants: ["C"]),
      .variantsDeleted(["B"]),
      .variantsAdded(["D"]),
      .weightsChanged(variants: ["A"]),
      .tokenRangeChanged(from: try Fixtures.range(0, 0.5), to: try Fixtures.range(0, 0.4)),
      .baselineChanged(from: "A", to: "C"),
    ])
  }

  @Test func keyChangesAreNamed() throws {
    let old = try Fixtures.experiment(variants: [("A", 1)])
    let new = try Experiment(name: "E", keys: ["size"], variants: [Variant(name: "A", assignments: ["size": .number(2)])])
    #expect(ExperimentChange.between(old, new) == [
      .keysChanged(added: ["size"], removed: ["color"]), .assignmentsChanged(variants: ["A"]),
    ])
  }
}
