import Bucketing
import Foundation
import Testing

/// docs/rules/UnleashRolloutChange.md: a gradual rollout keeps its users
/// while the percentage grows; the strategy's variants hash with the group id
/// apart from the rollout, so new weights move the users between the
/// boundaries and a new group id hashes everyone again. A parent toggle's
/// rollout without a group id hashes with the child's name.
@Suite struct UnleashRolloutChangeTests {
  static func features(rollout: Int, control: Int, group: String? = "paywall") -> UnleashEvaluator {
    let groupText = group.map { #", "groupId": "\#($0)""# } ?? ""
    let json = #"""
      {"version": 2, "features": [{"name": "paywall", "enabled": true, "strategies": [{"name": "flexibleRollout",
        "parameters": {"rollout": "\#(rollout)", "stickiness": "default"\#(groupText)}, "constraints": [],
        "variants": [{"name": "Control", "weight": \#(control), "stickiness": "default"}, {"name": "Treatment", "weight": \#(1000 - control), "stickiness": "default"}]}]},
        {"name": "child", "enabled": true, "strategies": [{"name": "default"}], "dependencies": [{"feature": "paywall"}]}]}
      """#
    return UnleashEvaluator(features: try! UnleashFeatures(json: Data(json.utf8)))
  }

  static func variant(_ evaluator: UnleashEvaluator, _ feature: String = "paywall") -> (String) -> String? {
    { id in evaluator.decide(feature, context: UnleashContext(userID: id, attributes: [:], now: Date(timeIntervalSince1970: 0)))?.variation }
  }

  @Test func aGrowingRolloutKeepsItsUsers() {
    let half = Self.variant(Self.features(rollout: 50, control: 500)), full = Self.variant(Self.features(rollout: 100, control: 500))
    let inside = PlatformChange.users.filter { half($0) != "disabled" }
    #expect(PlatformChange.near(inside.count, 0.5))
    #expect(inside.allSatisfy { half($0) == full($0) })
  }

  @Test func newWeightsMoveTheBoundaryAndANewGroupIdEveryone() {
    let even = Self.variant(Self.features(rollout: 100, control: 500)), uneven = Self.variant(Self.features(rollout: 100, control: 800))
    #expect(PlatformChange.near(PlatformChange.moved(even, uneven), 0.3))
    let regrouped = Self.variant(Self.features(rollout: 100, control: 800, group: "paywall.v1"))
    #expect(PlatformChange.near(PlatformChange.moved(uneven, regrouped), 2 * 0.8 * 0.2))
  }

  @Test func aParentsRolloutWithoutAGroupIdHashesWithTheChildsName() {
    // The child is on exactly where the parent's rollout, hashed as "child:ID", lets the user in.
    let evaluator = Self.features(rollout: 50, control: 500, group: nil)
    let child = Self.variant(evaluator, "child"), parent = Self.variant(evaluator)
    let childOn = PlatformChange.users.filter { child($0) == "enabled" }
    let byChildName = PlatformChange.users.filter { id in
      Int(MurmurHash3.x86_32("child:\(id)", seed: 0) % 100) + 1 <= 50
    }
    #expect(childOn == byChildName)
    #expect(PlatformChange.users.filter { parent($0) != "disabled" } != childOn)
  }
}
