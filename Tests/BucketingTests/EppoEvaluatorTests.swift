import Bucketing
import Foundation
import JSONDocument
import Testing

/// Eppo's assignment against eppo-server-sdk's own (its Rust core;
/// scripts/make_vendor_fixtures.py): every flag of a universal flag
/// configuration, under four sets of subject attributes, for subjects that
/// include those nearest a split's boundary.
@Suite struct EppoEvaluatorTests {
  struct Case {
    let attributes: Int
    let id: String
    let flag: String
    let variation: String?
  }

  static let fixtures: (attributeSets: [[String: JSONValue]], edgeIDs: [String], cases: [Case]) = {
    let root = try! JSONValue.parse(VendorFixtures.data("eppo")).object!
    let cases = root["cases"]!.array!.map { value in
      let members = value.object!
      guard case .integer(let attributes) = members["attributes"]! else { fatalError("attributes index") }
      return Case(attributes: Int(attributes), id: members["id"]!.string!, flag: members["flag"]!.string!, variation: members["variation"]!.string)
    }
    return (root["attributeSets"]!.array!.map { $0.object!.filter { $0.value != .null } }, root["edgeIds"]!.array!.map { $0.string! }, cases)
  }()

  static let configuration = try! EppoConfiguration(json: VendorFixtures.data("eppo-flags"))

  @Test func everyAssignmentMatchesTheSDK() {
    let evaluator = EppoEvaluator(configuration: Self.configuration)
    #expect(Self.fixtures.cases.count > 8_000)
    var mismatches: [String] = []
    for item in Self.fixtures.cases {
      let assignment = evaluator.assign(item.flag, subject: item.id, attributes: Self.fixtures.attributeSets[item.attributes], now: Date())
      if assignment.variationKey != item.variation {
        mismatches.append("\(item.flag) id \(item.id.prefix(20).debugDescription) set \(item.attributes): SDK \(item.variation ?? "null"), bench \(assignment.variationKey ?? "null") (\(assignment.reason))")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(10).joined(separator: "; "))")
  }

  @Test func subjectsBesideABoundaryFallOnEachSide() {
    // The SDK's own shards put these just below 5000 and at or above it in 'halves'.
    let below = EppoEvaluator.shard(Self.fixtures.edgeIDs[0], salt: "s1", totalShards: 10_000)
    let above = EppoEvaluator.shard(Self.fixtures.edgeIDs[1], salt: "s1", totalShards: 10_000)
    #expect(below < 5000 && above >= 5000 && above - below < 20)
  }

  @Test func numbersAreWrittenAsRustWritesThem() {
    #expect(EppoCondition.rustDisplay(42) == "42")
    #expect(EppoCondition.rustDisplay(1e21) == "1000000000000000000000")
    #expect(EppoCondition.rustDisplay(1.5) == "1.5")
    #expect(EppoCondition.rustDisplay(1e-7) == "0.0000001")
    #expect(EppoCondition.rustDisplay(-0.25) == "-0.25")
  }
}
