import Bucketing
import Foundation
import Testing

/// docs/rules/StatsigSaltChange.md: the allocation and the groups hash with
/// salts of their own on 1,000 user buckets, so a larger allocation moves no
/// allocated user, new group sizes move the users between the boundaries,
/// and a new salt buckets everyone again.
@Suite struct StatsigSaltChangeTests {
  /// An experiment allocating `allocated` of 1,000 buckets, Control on [0, `split`) of the group buckets.
  static func evaluator(allocated: Int, split: Int, salt: String = "paywall") -> StatsigEvaluator {
    func bucket(_ op: String, _ value: Int, _ salt: String) -> String {
      #"{"type": "user_bucket", "operator": "\#(op)", "targetValue": \#(value), "additionalValues": {"salt": "\#(salt)"}}"#
    }
    let json = #"""
      {"time": 1, "feature_gates": [], "dynamic_configs": [{"name": "paywall", "salt": "\#(salt)", "enabled": true, "entity": "experiment", "rules": [
        {"id": "allocation", "passPercentage": 100, "conditions": [\#(bucket("gte", allocated, salt + ".allocation"))]},
        {"id": "control", "passPercentage": 100, "groupName": "Control", "isExperimentGroup": true, "conditions": [\#(bucket("lt", split, salt))]},
        {"id": "treatment", "passPercentage": 100, "groupName": "Treatment", "isExperimentGroup": true, "conditions": [\#(bucket("gte", split, salt))]}]}]}
      """#
    return StatsigEvaluator(specs: try! StatsigSpecs(json: Data(json.utf8)), now: Date(timeIntervalSince1970: 0))
  }

  static func group(_ evaluator: StatsigEvaluator) -> (String) -> String? {
    { id in
      let result = evaluator.getExperiment("paywall", user: StatsigUser(userID: id, attributes: [:]))
      return result.passed ? result.groupName : nil
    }
  }

  @Test func aLargerAllocationMovesNobodyAllocated() {
    let half = Self.group(Self.evaluator(allocated: 500, split: 500)), full = Self.group(Self.evaluator(allocated: 1000, split: 500))
    let allocated = PlatformChange.users.filter { half($0) != nil }
    #expect(PlatformChange.near(allocated.count, 0.5))
    #expect(allocated.allSatisfy { half($0) == full($0) })
  }

  @Test func newGroupSizesMoveTheBoundaryAndANewSaltEveryone() {
    let even = Self.group(Self.evaluator(allocated: 1000, split: 500)), uneven = Self.group(Self.evaluator(allocated: 1000, split: 800))
    #expect(PlatformChange.near(PlatformChange.moved(even, uneven), 0.3))
    let resalted = Self.group(Self.evaluator(allocated: 1000, split: 800, salt: "paywall.v1"))
    #expect(PlatformChange.near(PlatformChange.moved(uneven, resalted), 2 * 0.8 * 0.2))
  }
}
