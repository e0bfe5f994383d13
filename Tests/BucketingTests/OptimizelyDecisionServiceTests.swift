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
    let fixtures = try VendorFixtures.load("optimizely", as: OptimizelyFixtures.self)
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
    let fixtures = try VendorFixtures.load("optimizely", as: OptimizelyFixtures.self)
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

  /// Raising traffic allocation from 50% to 100% (50/50 split) moves nobody
  /// already bucketed, without a profile store: each variation only gains
  /// buckets. Half of those left out join.
  @Test func raisingTrafficMovesNobodyAlreadyBucketed() throws {
    let half = try service(weights: [1, 1], traffic: 0.5), full = try service(weights: [1, 1], traffic: 1)
    var joined = 0
    for user in 0..<20_000 {
      var profile: [String: String]? = nil
      let before = half.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &profile).variation
      let after = full.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &profile).variation
      if let before { #expect(after == before) } else { joined += 1 }
    }
    #expect(abs(Double(joined) - 10_000) < 4.5 * (20_000 * 0.25).squareRoot())
  }

  /// Weights 50/50 to 80/20 move the users in buckets [5,000, 8,000): 30%,
  /// unless a user profile store holds their decision, which moves nobody.
  @Test func changingWeightsMovesThirtyPercentUnlessAProfileHoldsThem() throws {
    let even = try service(weights: [1, 1], traffic: 1), uneven = try service(weights: [4, 1], traffic: 1)
    var moved = 0, movedWithProfile = 0
    for user in 0..<20_000 {
      var none: [String: String]? = nil, stored: [String: String]? = [:]
      let before = even.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &stored).variation
      if uneven.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &none).variation != before { moved += 1 }
      if uneven.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &stored).variation != before {
        movedWithProfile += 1
      }
    }
    #expect(abs(Double(moved) - 6_000) < 4.5 * (20_000 * 0.3 * 0.7).squareRoot())
    #expect(movedWithProfile == 0)
  }

  @Test func theAllocationLayoutLeavesGapsForTheTrafficLeftOut() {
    let allocation = OptimizelyBucketer.allocation(variationIDs: ["a", "b"], weights: [1, 1], traffic: 0.5)
    #expect(allocation == [
      .init(entityId: "a", endOfRange: 2_500), .init(entityId: "", endOfRange: 5_000),
      .init(entityId: "b", endOfRange: 7_500), .init(entityId: "", endOfRange: 10_000),
    ])
  }

  private func service(weights: [Double], traffic: Double) throws -> OptimizelyDecisionService {
    let traffic = OptimizelyBucketer.allocation(variationIDs: ["a", "b"], weights: weights, traffic: traffic)
      .map { "{\"entityId\": \"\($0.entityId)\", \"endOfRange\": \($0.endOfRange)}" }.joined(separator: ",")
    return OptimizelyDecisionService(datafile: try OptimizelyDatafile(json: Data("""
      {"version": "4", "experiments": [{"id": "77", "key": "e", "status": "Running",
        "variations": [{"id": "a", "key": "a"}, {"id": "b", "key": "b"}],
        "trafficAllocation": [\(traffic)], "audienceIds": []}]}
      """.utf8)))
  }
}
