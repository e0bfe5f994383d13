import Testing

@testable import ScenarioFormat

/// The one measure behind every "did you mean": a scenario's fields, the
/// subcommands, an export's events and properties.
@Suite struct ClosestNamesTests {
  @Test func theEditDistanceCountsInsertionsDeletionsAndSubstitutions() {
    #expect(ClosestNames.editDistance("kitten", "sitting") == 3)
    #expect(ClosestNames.editDistance("", "abc") == 3 && ClosestNames.editDistance("abc", "") == 3)
    #expect(ClosestNames.editDistance("purchase", "purchase") == 0)
    #expect(ClosestNames.editDistance("flaw", "lawn") == 2)
  }

  /// The same name but for case first, then the nearer, then the more frequent; far names never.
  @Test func theNearestNamesComeCaseFirstThenByDistanceAndRows() {
    let candidates = [("session_start", 80), ("purchases", 3), ("Purchase", 380), ("purchase!", 40), ("screen_view", 90)]
      .map { (name: $0.0, count: $0.1) }
    let near = ClosestNames.near("purchase", among: candidates)
    #expect(near.map(\.name) == ["Purchase", "purchase!", "purchases"])
    #expect(near.map(\.count) == [380, 40, 3])
    #expect(ClosestNames.near("purchase", among: candidates, limit: 1).map(\.name) == ["Purchase"])
    #expect(ClosestNames.near("refund", among: candidates).isEmpty)
    // The name itself is no suggestion, and a name longer than any typo gets none.
    #expect(ClosestNames.near("Purchase", among: [(name: "Purchase", count: 1)]).isEmpty)
    #expect(ClosestNames.near(String(repeating: "a", count: 65), among: [(name: String(repeating: "a", count: 64), count: 1)]).isEmpty)
  }
}
