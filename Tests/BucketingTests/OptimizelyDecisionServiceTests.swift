import Bucketing
import Foundation
import Testing

/// Whole Optimizely decisions against optimizely-sdk: 2,500 users with mixed
/// attributes through seven experiments (a whitelist, audiences on app
/// versions, partial traffic, a paused test, a single variation, a mutually
/// exclusive group) and a feature flag with a feature test and a rollout.
@Suite struct OptimizelyDecisionServiceTests {
  private struct Root: Decodable { let datafile: OptimizelyDatafile }

  private func service() throws -> OptimizelyDecisionService {
    OptimizelyDecisionService(datafile: try VendorFixtures.load("optimizely", as: Root.self).datafile)
  }

  @Test func everyDecisionMatchesTheSDK() throws {
    let fixtures = try VendorFixtures.optimizely.get()
    let service = try service()
    var compared = 0
    for decision in fixtures.decisions {
      for (experiment, expected) in decision.variations {
        var profile: [String: String]? = nil
        let actual = service.decide(experiment: experiment, userID: decision.id, attributes: decision.attributes, profile: &profile)
        #expect(actual.variation?.key == expected, "\(decision.id) \(experiment) \(decision.attributes)")
        compared += 1
      }
      var profile: [String: String]? = nil
      let feature = try #require(service.feature("new_checkout", userID: decision.id, attributes: decision.attributes, profile: &profile))
      let expected = try #require(decision.features["new_checkout"])
      #expect(feature.isEnabled == expected.enabled, "\(decision.id) \(decision.attributes)")
      #expect(feature.variables["label"] == expected.label, "\(decision.id) \(decision.attributes)")
    }
    #expect(compared == 17_500)
  }

  @Test func semanticVersionsCompareAsTheSDKDoes() throws {
    let fixtures = try VendorFixtures.optimizely.get()
    for version in fixtures.versions {
      let condition = AttributeValue.object([
        "name": .string("v"), "type": .string("custom_attribute"), "match": .string(version.match),
        "value": .string(version.target),
      ])
      #expect(
        OptimizelyAudience.evaluate(condition: condition, attributes: ["v": .string(version.user)]) == version.result,
        "\(version.user) \(version.match) \(version.target)")
    }
  }
}
