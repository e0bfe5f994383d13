import Bucketing
import Foundation
import JSONDocument
import Testing

/// Unleash's evaluation against UnleashClient's own `get_variant` and
/// `is_enabled` (its Yggdrasil engine; scripts/make_vendor_fixtures.py): every
/// feature of a client features response, under four contexts.
@Suite struct UnleashEvaluatorTests {
  struct Case {
    let attributes: Int
    let id: String
    let feature: String
    let variation: String
  }

  static let fixtures: (attributeSets: [[String: JSONValue]], cases: [Case]) = {
    let root = try! JSONValue.parse(VendorFixtures.data("unleash")).object!
    let cases = root["cases"]!.array!.map { value in
      let members = value.object!
      guard case .integer(let attributes) = members["attributes"]! else { fatalError("attributes index") }
      return Case(
        attributes: Int(attributes), id: members["id"]!.string!, feature: members["feature"]!.string!,
        variation: members["variation"]!.string!)
    }
    return (root["attributeSets"]!.array!.map { $0.object! }, cases)
  }()

  static let features = try! UnleashFeatures(json: VendorFixtures.data("unleash-features"))

  @Test func everyDecisionMatchesTheSDK() {
    let evaluator = UnleashEvaluator(features: Self.features)
    #expect(Self.fixtures.cases.count > 10_000)
    var mismatches: [String] = []
    for item in Self.fixtures.cases {
      let context = UnleashContext(userID: item.id, attributes: Self.fixtures.attributeSets[item.attributes], now: Date())
      let decision = evaluator.decide(item.feature, context: context)
      if decision?.variation != item.variation {
        mismatches.append("\(item.feature) id \(item.id.prefix(20).debugDescription) set \(item.attributes): SDK \(item.variation), bench \(decision?.variation ?? "none") (\(decision?.reason ?? ""))")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, e.g. \(mismatches.prefix(10).joined(separator: "; "))")
  }

  @Test func whatTheEngineCannotCompileOrFindIsSaid() {
    let problems = Self.features.problems
    #expect(problems.contains { $0.hasPrefix("feature 'rollout-over':") && $0.contains("rolls out 150%") })
    #expect(problems.contains { $0.hasPrefix("feature 'constraints-bad-semver':") } == false)  // a "v" version is false, not a broken rule
    #expect(problems.contains { $0.contains("uses the segment 99") })
    #expect(problems.contains { $0.contains("depends on 'nowhere'") })
  }
}
