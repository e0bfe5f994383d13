import Bucketing
import Foundation
import Testing

/// docs/rules/EppoSplitChange.md: a split takes a subject when its traffic
/// shard and its split shard both fall in range, each of its own salt; so
/// more traffic moves no assigned subject, new split ranges move the subjects
/// between the boundaries, and new salts assign everyone again.
@Suite struct EppoSplitChangeTests {
  static func evaluator(traffic: Int, split: Int, salt: String = "paywall") -> EppoEvaluator {
    func variation(_ key: String, _ start: Int, _ end: Int) -> String {
      #"{"variationKey": "\#(key)", "shards": [{"salt": "\#(salt)-traffic", "ranges": [{"start": 0, "end": \#(traffic)}]}, {"salt": "\#(salt)-split", "ranges": [{"start": \#(start), "end": \#(end)}]}]}"#
    }
    let json = #"""
      {"format": "SERVER", "flags": {"paywall": {"key": "paywall", "enabled": true, "variationType": "STRING", "totalShards": 10000,
        "variations": {"Control": {"key": "Control", "value": "Control"}, "Treatment": {"key": "Treatment", "value": "Treatment"}},
        "allocations": [{"key": "main", "rules": [], "splits": [\#(variation("Control", 0, split)), \#(variation("Treatment", split, 10000))]}]}}}
      """#
    return EppoEvaluator(configuration: try! EppoConfiguration(json: Data(json.utf8)))
  }

  static func variation(_ evaluator: EppoEvaluator) -> (String) -> String? {
    { id in evaluator.assign("paywall", subject: id, attributes: [:], now: Date(timeIntervalSince1970: 0)).variationKey }
  }

  @Test func moreTrafficMovesNobodyAssigned() {
    let half = Self.variation(Self.evaluator(traffic: 5000, split: 5000)), full = Self.variation(Self.evaluator(traffic: 10_000, split: 5000))
    let assigned = PlatformChange.users.filter { half($0) != nil }
    #expect(PlatformChange.near(assigned.count, 0.5))
    #expect(assigned.allSatisfy { half($0) == full($0) })
  }

  @Test func newRangesMoveTheBoundaryAndNewSaltsEveryone() {
    let even = Self.variation(Self.evaluator(traffic: 10_000, split: 5000)), uneven = Self.variation(Self.evaluator(traffic: 10_000, split: 8000))
    #expect(PlatformChange.near(PlatformChange.moved(even, uneven), 0.3))
    let resalted = Self.variation(Self.evaluator(traffic: 10_000, split: 8000, salt: "paywall.v1"))
    #expect(PlatformChange.near(PlatformChange.moved(uneven, resalted), 2 * 0.8 * 0.2))
  }
}
