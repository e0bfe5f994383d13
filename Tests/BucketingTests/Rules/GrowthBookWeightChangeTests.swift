import Bucketing
import Testing

/// docs/rules/GrowthBookWeightChange.md: new weights move the users whose hash
/// lies between the old and new range boundaries, unless sticky bucketing
/// holds them; a new bucket version re-buckets everyone by the current weights.
@Suite struct GrowthBookWeightChangeTests {
  /// Weights 50/50 to 80/20 move 30% of users without sticky bucketing (the
  /// hashes in [0.5, 0.8)), none with it; a new bucket version re-buckets
  /// everyone by the current weights.
  @Test func changingWeightsMovesThirtyPercentUnlessStickyBucketingHoldsThem() {
    // Keys as a payload's meta gives them: sticky bucket documents store them.
    let even = GrowthBookExperiment(
      key: "w", variations: [.number(0), .number(1)], weights: [0.5, 0.5], hashVersion: 2, variationKeys: ["0", "1"])
    var uneven = even
    uneven.weights = [0.8, 0.2]
    var rebucketed = uneven
    rebucketed.bucketVersion = 1
    var moved = 0, movedSticky = 0, differsFromHash = 0
    for user in 0..<20_000 {
      let attributes: [String: AttributeValue] = ["id": .string("device-\(user)")]
      var none: GrowthBookStickyBuckets? = nil, sticky: GrowthBookStickyBuckets? = GrowthBookStickyBuckets()
      let before = even.run(attributes: attributes, sticky: &sticky).variationID
      if uneven.run(attributes: attributes, sticky: &none).variationID != before { moved += 1 }
      if uneven.run(attributes: attributes, sticky: &sticky).variationID != before { movedSticky += 1 }
      let fresh = rebucketed.run(attributes: attributes, sticky: &sticky)
      if fresh.stickyBucketUsed || fresh.variationID != uneven.run(attributes: attributes, sticky: &none).variationID {
        differsFromHash += 1
      }
    }
    let bound: Double = 4.5 * (20_000 * 0.3 * 0.7).squareRoot()
    #expect(abs(Double(moved) - 6_000) < bound)
    #expect(movedSticky == 0)
    #expect(differsFromHash == 0)
  }

  /// Coverage 50% to 100% widens each variation's range: nobody in the
  /// experiment moves, and the users left out before enter.
  @Test func raisingCoverageMovesNobodyInTheExperiment() {
    let half = GrowthBookExperiment(key: "c", variations: [.number(0), .number(1)], coverage: 0.5, hashVersion: 2)
    var full = half
    full.coverage = 1
    var entered = 0
    for user in 0..<20_000 {
      var none: GrowthBookStickyBuckets? = nil
      let attributes: [String: AttributeValue] = ["id": .string("device-\(user)")]
      let before = half.run(attributes: attributes, sticky: &none), after = full.run(attributes: attributes, sticky: &none)
      if before.inExperiment { #expect(after.variationID == before.variationID && after.inExperiment) } else { entered += 1 }
    }
    #expect(abs(Double(entered) - 10_000) < 4.5 * (20_000 * 0.25).squareRoot())
  }
}
