import Bucketing
import Foundation
import Testing

/// Feature evaluation on a features payload as the SDK receives it: a force
/// rule with a condition and a coverage, then an experiment rule.
@Suite struct GrowthBookPayloadTests {
  @Test func featureValuesMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    let payload = try GrowthBookPayload(fixtures.payload)
    #expect(fixtures.features.count == 1_200)
    for user in fixtures.features {
      for (key, expected) in user.values {
        var sticky: GrowthBookStickyBuckets? = nil
        let evaluation = payload.evaluate(key, attributes: user.attributes, sticky: &sticky)
        #expect(evaluation.value == expected, "\(user.id) \(key)")
        #expect(evaluation.source == user.sources[key], "\(user.id) \(key)")
      }
    }
  }

  /// The first rule that applies decides, as growthbook 4.0.0's
  /// `eval_feature` reports it: rollouts (a force rule with a coverage or a
  /// range, hashed on another attribute with a fallback) before and after
  /// experiment rules, an experiment hashed on the device id the app gives,
  /// defaults of every JSON type, and the id of the rule that decided.
  @Test func rolloutsAndTheDecidingRuleMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    let payload = try GrowthBookPayload(fixtures.rolloutPayload)
    #expect(fixtures.rollouts.count == 1_000)
    let sources = expectTheSDKsEvaluations(of: payload, for: fixtures.rollouts)
    // Every rule decides for some user.
    #expect(sources.isSuperset(of: [
      "price force fr_qa", "price force fr_rollout", "price experiment fr_exp", "price defaultValue ",
      "banner experiment fr_dev", "new-onboarding force fr_range", "new-onboarding force fr_half",
    ]))
  }

  /// The newer payloads' structure, as growthbook 4.0.0 evaluates it: saved
  /// groups (`$inGroup`, `$notInGroup`; a group of a type the SDK does not
  /// know is "unknown", a malformed one fails), filters in place of
  /// namespaces, explicit variation ranges, and prerequisites that skip a
  /// rule, end the evaluation as a gate ("prerequisite"), name a missing
  /// feature or meet a cycle ("cyclicPrerequisite").
  @Test func savedGroupsFiltersRangesAndPrerequisitesMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    let payload = try GrowthBookPayload(fixtures.structurePayload)
    #expect(fixtures.structures.count == 603)
    let sources = expectTheSDKsEvaluations(of: payload, for: fixtures.structures)
    #expect(sources.isSuperset(of: [
      "beta-banner force fr_beta", "beta-banner force fr_staff", "beta-banner force fr_outsiders",
      "filtered-test experiment fr_filters", "filtered-test defaultValue ", "rule-filtered force fr_layer",
      "child force fr_child", "child defaultValue ", "gated-child prerequisite ", "orphan force fr_orphan",
      "loop-a cyclicPrerequisite ",
    ]))
  }

  /// The newer members of a rule, and the saved groups, of the wrong shape are errors naming their path.
  @Test func newerMembersOfTheWrongShapeAreNamed() {
    let cases: [(String, String)] = [
      (#"{"features": {"f": {"rules": [{"force": 1, "range": [0.5]}]}}}"#,
       "features.f.rules[0].range: must be an array of two numbers, the hash's start and end"),
      (#"{"features": {"f": {"rules": [{"variations": [0, 1], "ranges": [[0, 0.5], [0.5]]}]}}}"#,
       "features.f.rules[0].ranges: must be an array of [start, end] pairs of numbers, one per variation"),
      (#"{"features": {"f": {"rules": [{"force": 1, "filters": {"seed": "s"}}]}}}"#,
       "features.f.rules[0].filters: must be an array of filters"),
      (#"{"features": {"f": {"rules": [{"force": 1, "filters": [{"seed": "s"}]}]}}}"#,
       #"features.f.rules[0].filters[0]: must be a filter: an object with "ranges", an array of [start, end] pairs"#),
      (#"{"features": {"f": {"rules": [{"force": 1, "parentConditions": ["p"]}]}}}"#,
       #"features.f.rules[0].parentConditions: must be an array of {"id", "condition", "gate"} objects"#),
      (#"{"features": {}, "savedGroups": []}"#, "savedGroups: must be an object of groups by id"),
    ]
    for (text, reason) in cases {
      #expect(throws: BucketingError.unreadable(format: "GrowthBook features payload", reason: reason), "\(text)") {
        try GrowthBookPayload(json: Data(text.utf8))
      }
    }
  }

  /// Each user's evaluation of each feature against the SDK's: value, source,
  /// deciding rule, variation and hash; the rules after the one that decided
  /// are not reached. Returns "feature source rule" for every decision met.
  private func expectTheSDKsEvaluations(of payload: GrowthBookPayload, for users: [GrowthBookFixtures.Rollout]) -> Set<String> {
    var sources: Set<String> = []
    for user in users {
      for (key, expected) in user.results {
        var sticky: GrowthBookStickyBuckets? = nil
        let evaluation = payload.evaluate(key, attributes: user.attributes, sticky: &sticky)
        let label = "\(user.id) \(key)"
        #expect(evaluation.value == expected.value, "\(label)")
        #expect(evaluation.source == expected.source && evaluation.ruleID == expected.ruleId, "\(label)")
        #expect(evaluation.experiment?.variationID == expected.variationId, "\(label)")
        #expect(evaluation.experiment?.bucket == expected.bucket, "\(label)")
        if !expected.ruleId.isEmpty, let decided = payload.features[key]!.rules.firstIndex(where: { $0.id == expected.ruleId }) {
          #expect(evaluation.rules[(decided + 1)...].allSatisfy { $0 == .notReached }, "\(label)")
        }
        sources.insert("\(key) \(expected.source) \(expected.ruleId)")
      }
    }
    return sources
  }

  @Test func aPayloadWithoutFeaturesIsAClearError() {
    #expect(throws: BucketingError.unreadable(
      format: "GrowthBook features payload", reason: "features: an object of features is required")) {
      try GrowthBookPayload(json: Data(#"{"feature": {}}"#.utf8))
    }
  }

  /// The SDKs read a rule's `hashVersion` as `hashVersion || 1`: 0 hashes as
  /// version 1 does, for experiments and rollouts alike.
  @Test func hashVersionZeroIsVersionOne() throws {
    func payload(_ version: Int) throws -> GrowthBookPayload {
      try GrowthBookPayload(json: Data("""
        {"features": {"exp": {"defaultValue": "off", "rules": [{"key": "e", "variations": ["a", "b"], "hashVersion": \(version)}]},
                      "roll": {"defaultValue": false, "rules": [{"force": true, "coverage": 0.5, "hashVersion": \(version)}]}}}
        """.utf8))
    }
    let zero = try payload(0), one = try payload(1)
    for user in (0..<500).map({ "user-\($0)" }) {
      for key in ["exp", "roll"] {
        var noSticky: GrowthBookStickyBuckets?
        let a = zero.evaluate(key, attributes: ["id": .string(user)], sticky: &noSticky)
        let b = one.evaluate(key, attributes: ["id": .string(user)], sticky: &noSticky)
        #expect(a.value == b.value && a.source == b.source, "\(user) \(key)")
      }
    }
  }
}
