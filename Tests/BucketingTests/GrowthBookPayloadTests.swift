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

  @Test func aPayloadWithoutFeaturesIsAClearError() {
    #expect(throws: BucketingError.unreadable(
      format: "GrowthBook features payload", reason: "features: an object of features is required")) {
      try GrowthBookPayload(json: Data(#"{"feature": {}}"#.utf8))
    }
  }
}
