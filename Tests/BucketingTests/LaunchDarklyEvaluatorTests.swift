import Bucketing
import Foundation
import JSONDocument
import Testing

/// LaunchDarkly's evaluation against launchdarkly-server-sdk's own
/// `variationDetail` (scripts/make_vendor_fixtures.py): every flag of a flag
/// data file that exercises each branch of the evaluator, for ids on both
/// sides of the rollouts' boundaries and under four sets of attributes.
@Suite struct LaunchDarklyEvaluatorTests {
  struct Fixtures {
    struct Case {
      let attributes: Int
      let id: String
      let flag: String
      let variation: Int?
    }
    let attributeSets: [[String: JSONValue]]
    let edgeIds: [String]
    let cases: [Case]
  }

  static let fixtures: Fixtures = {
    let root = try! JSONValue.parse(VendorFixtures.data("launchdarkly")).object!
    return Fixtures(
      attributeSets: root["attributeSets"]!.array!.map { $0.object! },
      edgeIds: root["edgeIds"]!.array!.map { $0.string! },
      cases: root["cases"]!.array!.map { value in
        let members = value.object!
        guard case .integer(let attributes) = members["attributes"]! else { fatalError("attributes index") }
        let variation: Int? = if case .integer(let index) = members["variation"]! { Int(index) } else { nil }
        return Fixtures.Case(attributes: Int(attributes), id: members["id"]!.string!, flag: members["flag"]!.string!, variation: variation)
      })
  }()

  static let data = try! LaunchDarklyFlagData(json: VendorFixtures.data("launchdarkly-flags"))

  @Test func everyDecisionMatchesTheSDK() {
    let evaluator = LaunchDarklyEvaluator(data: Self.data)
    #expect(Self.fixtures.cases.count > 10_000)
    var mismatches: [String] = []
    for item in Self.fixtures.cases {
      let context = LaunchDarklyContext(key: item.id, attributes: Self.fixtures.attributeSets[item.attributes])
      let detail = evaluator.variationDetail(item.flag, context: context)
      if detail.variationIndex != item.variation {
        mismatches.append("\(item.flag) id \(item.id.prefix(20).debugDescription) set \(item.attributes): SDK \(item.variation.map(String.init) ?? "null"), bench \(detail.variationIndex.map(String.init) ?? "null") (\(detail.reason))")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(8).joined(separator: "; "))")
  }

  @Test func theFixturesReachEveryOutcome() {
    // A fixture that never serves some branch would let a wrong branch pass.
    let served = Dictionary(grouping: Self.fixtures.cases, by: \.flag).mapValues { Set($0.map(\.variation)) }
    #expect(served["rules"] == [nil, 0, 1, 2, 3])
    #expect(served["thirds"] == [nil, 0, 1, 2])
    #expect(served["segments"]?.isSuperset(of: [1, 2, 3]) == true)
    #expect(served["cycle-a"] == [nil])
    #expect(served["prereq-chain"] == [nil, 0, 1])
    #expect(Self.fixtures.edgeIds.count == 6)
  }

  @Test func idsBesideABoundaryFallOnEachSide() throws {
    // The ids the SDK puts nearest 0.5 in 'half', below then above.
    let evaluator = LaunchDarklyEvaluator(data: Self.data)
    let below = LaunchDarklyContext(key: Self.fixtures.edgeIds[0], attributes: [:])
    let above = LaunchDarklyContext(key: Self.fixtures.edgeIds[1], attributes: [:])
    let low = evaluator.variationDetail("half", context: below), high = evaluator.variationDetail("half", context: above)
    #expect(low.variationIndex == 0 && high.variationIndex == 1)
    #expect(try #require(low.bucket) < 0.5 && (try #require(high.bucket)) >= 0.5)
  }

  @Test func aFileTheSDKWouldRefuseIsRefusedWithItsPath() {
    let bad = Data(#"{"flags": {"f": {"key": "f", "on": true, "variations": [1], "fallthrough": {"variation": 1.5}}}}"#.utf8)
    #expect(throws: BucketingError.unreadable(format: "LaunchDarkly flag data", reason: "flags.f.fallthrough.variation: expected an integer, found a number with a fraction or exponent")) {
      try LaunchDarklyFlagData(json: bad)
    }
    let truncated = Data(#"{"flags": {"f": "#.utf8)
    #expect(throws: BucketingError.self) { try LaunchDarklyFlagData(json: truncated) }
  }

  /// issue 68: a flag without its salt buckets a rollout with an empty one, which moves every user
  /// against a file that has it: said where a rollout hashes it (no seed), not for fixed variations.
  @Test func aFlagWithoutItsSaltIsSaid() throws {
    func flags(_ salt: String, _ outcome: String) throws -> LaunchDarklyFlagData {
      try LaunchDarklyFlagData(json: Data(
        #"{"flags": {"f": {"key": "f", "on": true, "variations": [0, 1]\#(salt), "fallthrough": \#(outcome)}}}"#.utf8))
    }
    let rollout = #"{"rollout": {"variations": [{"variation": 0, "weight": 50000}, {"variation": 1, "weight": 50000}]}}"#
    #expect(try flags("", rollout).problems == [
      "flag 'f' has no salt: the SDK buckets its rollout with an empty one, where LaunchDarkly's own data gives every flag "
        + "its salt; against a file that has it, every user's bucket moves (check the export kept 'salt')",
    ])
    #expect(try flags(#", "salt": "abc""#, rollout).problems.isEmpty)
    #expect(try flags("", rollout.replacingOccurrences(of: #""variations""#, with: #""seed": 7, "variations""#)).problems.isEmpty)
    #expect(try flags("", #"{"variation": 1}"#).problems.isEmpty)
  }

  @Test func referencesToWhatIsNotInTheFileAreSaid() throws {
    let data = try LaunchDarklyFlagData(json: Data(#"""
      {"flags": {"f": {"key": "g", "on": true, "variations": [1], "prerequisites": [{"key": "p", "variation": 0}],
       "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["s"]}], "variation": 0}]}}}
      """#.utf8))
    #expect(data.problems.count == 3)
    #expect(data.problems.contains { $0.contains("'p', which is not in the file") })
    #expect(data.problems.contains { $0.contains("segment 's'") })
    #expect(data.problems.contains { $0.contains("stores and evaluates it under 'g'") })
    // issue 68: the rows are the flags the SDK stores, under their keys: an app asking for 'g' gets the
    // flag, where the member's name 'f' finds nothing.
    #expect(data.flagNames == ["g"])
    #expect(LaunchDarklyEvaluator(data: data).variationDetail("g", context: LaunchDarklyContext(key: "u", attributes: [:]))
      .reason != "ERROR FLAG_NOT_FOUND")
  }
}
