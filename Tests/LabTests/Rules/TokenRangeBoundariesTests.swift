import Lab
import Testing

/// Rule 5 (docs/rules/TokenRangeBoundaries.md): ranges are half-open,
/// [lower, upper), except that an upper bound of 1 includes 1.
@Suite struct TokenRangeBoundariesTests {
  @Test func theLowerBoundIsInside() throws {
    let range = try TokenRange(lower: 0.1, upper: 0.3)
    #expect(range.contains(0.1))
    #expect(!range.contains(0.1.nextDown))
  }

  @Test func theUpperBoundIsOutside() throws {
    let range = try TokenRange(lower: 0.1, upper: 0.3)
    #expect(!range.contains(0.3))
    #expect(range.contains(0.3.nextDown))
  }

  @Test func anUpperBoundOfOneIsInside() throws {
    let range = try TokenRange(lower: 0.5, upper: 1)
    #expect(range.contains(1))
    #expect(range.contains(0.5))
    #expect(TokenRange.all.contains(0))
    #expect(TokenRange.all.contains(1))
  }

  @Test func adjacentRangesDoNotOverlap() throws {
    let lower = try TokenRange(lower: 0.1, upper: 0.3), upper = try TokenRange(lower: 0.3, upper: 0.5)
    #expect(!lower.overlaps(upper))
    #expect(lower.intersection(upper) == nil)
    #expect(lower.overlaps(try TokenRange(lower: 0.3.nextDown, upper: 0.5)))
  }

  @Test func aLocalSourceFollowsTheBoundaries() throws {
    let experiment = try Fixtures.experiment(variants: [("A", 1)], range: Fixtures.range(0.1, 0.3))
    var random = ScriptedZero()
    for (token, active) in [(0.1, true), (0.3.nextDown, true), (0.3, false), (0.1.nextDown, false)] {
      let source = try LocalSource(
        experiments: [experiment], token: ActiveExperimentsToken(token), storage: InMemoryStorage(), random: &random)
      #expect((source.decisions == [.active(variant: 0)]) == active, "token \(token)")
    }
  }

  @Test func emptyAndOutOfBoundsRangesAreRejected() {
    #expect(throws: TokenRangeError.empty(lower: 0.3, upper: 0.3)) { try TokenRange(lower: 0.3, upper: 0.3) }
    #expect(throws: TokenRangeError.empty(lower: 0.5, upper: 0.2)) { try TokenRange(lower: 0.5, upper: 0.2) }
    #expect(throws: TokenRangeError.outsideUnitInterval(lower: -0.1, upper: 0.2)) {
      try TokenRange(lower: -0.1, upper: 0.2)
    }
    #expect(throws: TokenRangeError.outsideUnitInterval(lower: 0.5, upper: 1.5)) {
      try TokenRange(lower: 0.5, upper: 1.5)
    }
  }
}

/// A generator whose every draw is 0, for tests where the draw does not matter.
private struct ScriptedZero: RandomNumberGenerator {
  mutating func next() -> UInt64 { 0 }
}
