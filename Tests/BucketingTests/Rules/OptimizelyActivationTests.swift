import Bucketing
import Foundation
import Testing

/// docs/rules/OptimizelyActivation.md: an A/B test activates on first access
/// and keeps its activation until the app restarts, whatever datafile
/// arrives; a feature flag always gives the latest value, and false on error.
@Suite struct OptimizelyActivationTests {
  private func datafile(traffic: Double, flagRollout: Int) throws -> OptimizelyDatafile {
    try OptimizelyDatafile(json: Data("""
      {"version": "4",
       "experiments": [{"id": "9", "key": "paywall", "status": "Running",
         "variations": [{"id": "c", "key": "control"}, {"id": "t", "key": "treatment"}],
         "trafficAllocation": [{"entityId": "c", "endOfRange": \(Int(5000 * traffic))}, {"entityId": "t", "endOfRange": \(Int(10000 * traffic))}],
         "audienceIds": []}],
       "featureFlags": [{"id": "f", "key": "dark_mode", "experimentIds": [], "rolloutId": "r", "variables": []}],
       "rollouts": [{"id": "r", "experiments": [{"id": "30", "key": "everyone", "status": "Running",
         "variations": [{"id": "on", "key": "on", "featureEnabled": true}],
         "trafficAllocation": [{"entityId": "on", "endOfRange": \(flagRollout)}], "audienceIds": []}]}]}
      """.utf8))
  }

  /// A user outside the 0% traffic is not activated; a datafile at 100%
  /// arrives mid-session and changes nothing until the restart.
  @Test func anActivationHoldsUntilTheAppRestarts() throws {
    var client = OptimizelyClient(userID: "user-7", attributes: [:], datafile: try datafile(traffic: 0, flagRollout: 0), profile: nil)
    let first = client.variation(of: "paywall")
    client.update(datafile: try datafile(traffic: 1, flagRollout: 0))
    let sameSession = client.variation(of: "paywall")
    #expect(first == nil && sameSession == nil)
    client.restart()
    let after = client.variation(of: "paywall")
    #expect(["control", "treatment"].contains(try #require(after)))
  }

  /// "The latest value will always be returned for a feature flag": the
  /// rollout goes from 0% to 100% and the flag follows in the same session.
  @Test func aFeatureFlagFollowsTheLatestDatafile() throws {
    var client = OptimizelyClient(userID: "user-7", attributes: [:], datafile: try datafile(traffic: 1, flagRollout: 0), profile: nil)
    let before = client.isFeatureEnabled("dark_mode")
    client.update(datafile: try datafile(traffic: 1, flagRollout: 10_000))
    let after = client.isFeatureEnabled("dark_mode")
    #expect(before == false && after == true)
  }

  /// "Querying Optimizely to see whether a feature is available currently
  /// yields false both when the feature is disabled and when an error occurs."
  @Test func aFeatureQueryIsFalseOnError() throws {
    var missing = OptimizelyClient(userID: "u", attributes: [:], datafile: nil, profile: nil)
    let withoutDatafile = (missing.isFeatureEnabled("dark_mode"), missing.variation(of: "paywall"))
    #expect(withoutDatafile.0 == false && withoutDatafile.1 == nil)
    var client = OptimizelyClient(userID: "u", attributes: [:], datafile: try datafile(traffic: 1, flagRollout: 10_000), profile: nil)
    let unknown = (client.isFeatureEnabled("no_such_flag"), client.variable("label", of: "no_such_flag"))
    #expect(unknown.0 == false && unknown.1 == nil)
  }

  /// With a user profile store the decision outlives the restart and a
  /// datafile that would bucket the user elsewhere.
  @Test func aProfileStoreKeepsTheDecisionAcrossRestarts() throws {
    var moved = 0
    for user in 0..<2_000 {
      var client = OptimizelyClient(userID: "u\(user)", attributes: [:], datafile: try datafile(traffic: 1, flagRollout: 0), profile: [:])
      let first = client.variation(of: "paywall")
      client.update(datafile: try datafile(traffic: 0.5, flagRollout: 0))
      client.restart()
      if client.variation(of: "paywall") != first { moved += 1 }
    }
    #expect(moved == 0)
  }

  /// The seed: bundle id, version string, major, minor and patch are always sent.
  @Test func theAppsAttributesAreAlwaysSent() {
    #expect(AppAttributes(bundleIdentifier: "com.example", shortVersion: "2.10.1").attributes == [
      "bundle_id": .string("com.example"), "app_version": .string("2.10.1"),
      "app_major": .number(2), "app_minor": .number(10), "app_patch": .number(1),
    ])
  }
}
