import Bucketing
import Foundation
import Testing

/// docs/rules/LaunchDarklyRolloutChange.md: a rollout lays its variations
/// end to end, so a larger share for the experiment moves the users between
/// the old and the new boundaries; a new seed buckets everyone again.
@Suite struct LaunchDarklyRolloutChangeTests {
  /// A flag with variations Control, Treatment and "outside", served by a rollout of `weights` (100,000ths).
  static func evaluator(_ weights: [Int], seed: Int? = nil) -> LaunchDarklyEvaluator {
    let variations = weights.enumerated().map { #"{"variation": \#($0.offset), "weight": \#($0.element)}"# }.joined(separator: ", ")
    let seedText = seed.map { #", "seed": \#($0)"# } ?? ""
    let json = #"{"flags": {"paywall": {"key": "paywall", "on": true, "salt": "s", "variations": ["Control", "Treatment", "outside"], "fallthrough": {"rollout": {"variations": [\#(variations)]\#(seedText)}}}}}"#
    return LaunchDarklyEvaluator(data: try! LaunchDarklyFlagData(json: Data(json.utf8)))
  }

  static func variation(_ evaluator: LaunchDarklyEvaluator) -> (String) -> String? {
    { id in evaluator.variationDetail("paywall", context: LaunchDarklyContext(key: id, attributes: [:])).variationIndex.map(String.init) }
  }

  @Test func openingTheRolloutMovesTheUsersBetweenTheOldAndNewBoundaries() {
    let half = Self.evaluator([25_000, 25_000, 50_000]), full = Self.evaluator([50_000, 50_000, 0])
    let moved = PlatformChange.users.filter { id in
      Self.variation(half)(id) == "1" && Self.variation(full)(id) == "0"
    }
    // Exactly the users whose bucket lies in [0.25, 0.5): Treatment before, Control after.
    for id in moved {
      let bucket = half.variationDetail("paywall", context: LaunchDarklyContext(key: id, attributes: [:])).bucket!
      #expect(bucket >= 0.25 && bucket < 0.5)
    }
    #expect(PlatformChange.near(moved.count, 0.25))
    #expect(PlatformChange.moved(Self.variation(half), Self.variation(full)) == moved.count + PlatformChange.users.filter { Self.variation(half)($0) == "2" }.count)
  }

  @Test func newWeightsMoveTheBoundaryAndANewSeedEveryone() {
    let even = Self.evaluator([50_000, 50_000]), uneven = Self.evaluator([80_000, 20_000])
    #expect(PlatformChange.near(PlatformChange.moved(Self.variation(even), Self.variation(uneven)), 0.3))
    let reseeded = Self.evaluator([80_000, 20_000], seed: 1)
    #expect(PlatformChange.near(PlatformChange.moved(Self.variation(uneven), Self.variation(reseeded)), 2 * 0.8 * 0.2))
  }
}
