import Bucketing
import Foundation
import Testing

/// docs/rules/OptimizelyTrafficChange.md: raising an experiment's traffic
/// keeps every user already bucketed; changing its weights moves the users
/// between the old and new boundaries, unless a user profile store holds them.
@Suite struct OptimizelyTrafficChangeTests {
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

  /// Lowering the traffic from 100% to 50% drops half the users and moves nobody.
  @Test func loweringTrafficDropsUsersAndMovesNobody() throws {
    let full = try service(weights: [1, 1], traffic: 1), half = try service(weights: [1, 1], traffic: 0.5)
    var left = 0
    for user in 0..<20_000 {
      var profile: [String: String]? = nil
      let before = full.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &profile).variation
      let after = half.decide(experiment: "e", userID: "u\(user)", attributes: [:], profile: &profile).variation
      if let after { #expect(after == before) } else { left += 1 }
    }
    #expect(abs(Double(left) - 10_000) < 4.5 * (20_000 * 0.25).squareRoot())
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
