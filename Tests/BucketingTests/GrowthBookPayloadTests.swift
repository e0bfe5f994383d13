import Bucketing
import Foundation
import Testing

/// Feature evaluation on a features payload as the SDK receives it: a force
/// rule with a condition and a coverage, then an experiment rule.
@Suite struct GrowthBookPayloadTests {
  @Test func featureValuesMatchTheSDK() throws {
    let fixtures = try VendorFixtures.load("growthbook", as: GrowthBookFixtures.self)
    let payload = try GrowthBookPayload(fixtures.payload)
    #expect(fixtures.features.count == 1_200)
    for user in fixtures.features {
      for (key, expected) in user.values {
        var sticky: GrowthBookExperiment.StickyAssignments? = nil
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
    let fixtures = try VendorFixtures.load("growthbook", as: GrowthBookFixtures.self)
    let payload = try GrowthBookPayload(fixtures.rolloutPayload)
    #expect(fixtures.rollouts.count == 1_000)
    var sources: Set<String> = []
    for user in fixtures.rollouts {
      for (key, expected) in user.results {
        var sticky: GrowthBookExperiment.StickyAssignments? = nil
        let evaluation = payload.evaluate(key, attributes: user.attributes, sticky: &sticky)
        let label = "\(user.id) \(key)"
        #expect(evaluation.value == expected.value, "\(label)")
        #expect(evaluation.source == expected.source && evaluation.ruleID == expected.ruleId, "\(label)")
        #expect(evaluation.experiment?.variationID == expected.variationId, "\(label)")
        #expect(evaluation.experiment?.bucket == expected.bucket, "\(label)")
        // The rules after the one that decided are not reached; the ones before did not decide.
        if let decided = payload.features[key]!.rules.firstIndex(where: { $0.id == expected.ruleId }), !expected.ruleId.isEmpty {
          #expect(evaluation.rules[(decided + 1)...].allSatisfy { $0 == .notReached }, "\(label)")
        }
        sources.insert("\(key) \(expected.source) \(expected.ruleId)")
      }
    }
    // Every rule decides for some user.
    #expect(sources.isSuperset(of: [
      "price force fr_qa", "price force fr_rollout", "price experiment fr_exp", "price defaultValue ",
      "banner experiment fr_dev", "new-onboarding force fr_range", "new-onboarding force fr_half",
    ]))
  }

  @Test func aRangeThatIsNotTwoNumbersIsAnError() {
    #expect(throws: BucketingError.unreadable(
      format: "GrowthBook features payload",
      reason: "features.f.rules[0].range: must be an array of two numbers, the hash's start and end")) {
      try GrowthBookPayload(json: Data(#"{"features": {"f": {"rules": [{"force": 1, "range": [0.5]}]}}}"#.utf8))
    }
  }

  @Test func aPayloadWithoutFeaturesIsAClearError() {
    #expect(throws: BucketingError.unreadable(
      format: "GrowthBook features payload", reason: "features: an object of features is required")) {
      try GrowthBookPayload(json: Data(#"{"feature": {}}"#.utf8))
    }
  }
}
