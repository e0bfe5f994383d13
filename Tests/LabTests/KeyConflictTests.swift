import Lab
import Testing

@Suite struct KeyConflictTests {
  /// The doc's example: A [0.1, 0.3], B [0.5, 0.8], C [0.7, 0.9] with one key.
  @Test func theDocsExampleConflictsOnlyBetweenBAndC() throws {
    let experiments = try [("A", 0.1, 0.3), ("B", 0.5, 0.8), ("C", 0.7, 0.9)].map { name, lower, upper in
      try Fixtures.experiment(name, variants: [("V", 1)], range: Fixtures.range(lower, upper), key: "title")
    }
    #expect(KeyConflict.find(in: experiments) == [
      KeyConflict(experiments: ["B", "C"], keys: ["title"], tokens: try Fixtures.range(0.7, 0.8))
    ])
  }

  @Test func overlappingExperimentsWithoutSharedKeysDoNotConflict() throws {
    let first = try Fixtures.experiment("A", variants: [("V", 1)], key: "title")
    let second = try Fixtures.experiment("B", variants: [("V", 1)], key: "color")
    #expect(KeyConflict.find(in: [first, second]).isEmpty)
  }

  @Test func adjacentRangesDoNotConflict() throws {
    let first = try Fixtures.experiment("A", variants: [("V", 1)], range: Fixtures.range(0, 0.5), key: "title")
    let second = try Fixtures.experiment("B", variants: [("V", 1)], range: Fixtures.range(0.5, 1), key: "title")
    #expect(KeyConflict.find(in: [first, second]).isEmpty)
  }

  @Test func theConflictNamesEverySharedKey() throws {
    let first = try Experiment(
      name: "A", keys: ["title", "color"],
      variants: [Variant(name: "V", assignments: ["title": .string("t"), "color": .string("c")])])
    let second = try Experiment(
      name: "B", keys: ["color", "title", "size"],
      variants: [Variant(name: "W", assignments: ["title": .string("t"), "color": .string("c"), "size": .number(1)])])
    let conflicts = KeyConflict.find(in: [second, first])
    #expect(conflicts.map(\.description) == ["A and B share 'color', 'title' and are both active for tokens in [0, 1]"])
  }
}
