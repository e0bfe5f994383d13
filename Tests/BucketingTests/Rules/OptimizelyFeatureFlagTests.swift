import Bucketing
import Foundation
import Testing

/// docs/rules/OptimizelyFeatureFlag.md: a flag's rollout turns it on for the
/// users whose bucket lies below its share, so a wider rollout keeps everyone
/// it had; a flag the datafile does not have is false, as is every flag
/// without a datafile.
@Suite struct OptimizelyFeatureFlagTests {
  private func datafile(share: Int?) -> OptimizelyDatafile {
    guard let share else { return OptimizelyDatafile(experiments: []) }
    let on = OptimizelyDatafile.Variation(id: "on", key: "on", featureEnabled: true)
    let rule = OptimizelyDatafile.Experiment(
      id: "5000", key: "everyone-else", status: "Running", variations: [on],
      trafficAllocation: [.init(entityId: "on", endOfRange: share)])
    return OptimizelyDatafile(
      experiments: [], featureFlags: [.init(id: "f", key: "new_checkout", rolloutId: "r")],
      rollouts: [.init(id: "r", experiments: [rule])])
  }

  private func enabled(_ user: String, share: Int?) -> Bool? {
    var profile: [String: String]?
    return OptimizelyDecisionService(datafile: datafile(share: share))
      .feature("new_checkout", userID: user, attributes: [:], profile: &profile)?.isEnabled
  }

  /// 20% then 100% of 20,000 users: about a fifth on at first (within 4.5
  /// binomial standard errors), all of them still on, and everyone after.
  @Test func aWiderRolloutKeepsEveryoneItHad() {
    let users = (0..<20_000).map { "user-\($0)" }
    let first = Set(users.filter { enabled($0, share: 2_000) == true })
    let standardError: Double = (20_000.0 * 0.2 * 0.8).squareRoot()
    #expect(abs(Double(first.count) - 4_000) < 4.5 * standardError)
    let wider = Set(users.filter { enabled($0, share: 5_000) == true })
    #expect(first.isSubset(of: wider))
    #expect(users.allSatisfy { enabled($0, share: 10_000) == true })
  }

  /// "Querying Optimizely to see whether a feature is available currently
  /// yields false both when the feature is disabled and when an error
  /// occurs": no flag in the datafile is no decision, which the client
  /// answers with false, as it does without a datafile.
  @Test func aFlagTheDatafileLacksIsFalse() {
    #expect(enabled("user-1", share: nil) == nil)
    #expect(enabled("user-1", share: 0) == false)
    var withoutFlag = OptimizelyClient(userID: "user-1", attributes: [:], datafile: datafile(share: nil), profile: nil)
    var withoutDatafile = OptimizelyClient(userID: "user-1", attributes: [:], datafile: nil, profile: nil)
    let answers = (withoutFlag.isFeatureEnabled("new_checkout"), withoutDatafile.isFeatureEnabled("new_checkout"))
    #expect(answers == (false, false))
  }
}
