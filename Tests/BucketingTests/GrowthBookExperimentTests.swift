@testable import Bucketing
import Testing

/// Whole experiment runs and sticky bucketing against the SDK, and the
/// analytic consequences of changing a running experiment.
@Suite struct GrowthBookExperimentTests {
  private func experiment(_ spec: AttributeValue) throws -> GrowthBookExperiment {
    let members = try #require(spec.object)
    let namespace = members["namespace"]?.array.map {
      GrowthBookHash.Namespace(id: $0[0].string!, start: $0[1].number!, end: $0[2].number!)
    }
    return GrowthBookExperiment(
      key: members["key"]!.string!, variations: members["variations"]!.array!,
      weights: members["weights"]?.array?.compactMap(\.number), coverage: members["coverage"]?.number,
      condition: members["condition"], namespace: namespace, force: members["force"]?.number.map { Int($0) },
      hashVersion: members["hashVersion"]?.number.map { Int($0) } ?? 1, seed: members["seed"]?.string,
      active: members["active"].map { $0 == .bool(true) } ?? true, status: members["status"]?.string ?? "running")
  }

  @Test func runsMatchTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    let experiments = try fixtures.experiments.map(experiment)
    var compared = 0
    for run in fixtures.runs {
      for experiment in experiments {
        let expected = try #require(run.results[experiment.key])
        var sticky: GrowthBookStickyBuckets? = nil
        let result = experiment.run(attributes: run.attributes, sticky: &sticky)
        #expect(result.inExperiment == expected.inExperiment, "\(run.id) \(experiment.key)")
        #expect(result.variationID == expected.variationId, "\(run.id) \(experiment.key)")
        #expect(result.hashUsed == expected.hashUsed, "\(run.id) \(experiment.key)")
        #expect(result.bucket == expected.bucket, "\(run.id) \(experiment.key)")
        compared += 1
      }
    }
    #expect(compared == 13_200)
  }

  /// The SDK's sticky bucketing through a change of weights (kept), a new
  /// bucket version (re-bucketed) and a minimum bucket version (excluded, so
  /// the feature falls back to its default), on 500 users.
  @Test func stickyBucketingMatchesTheSDK() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    var kept = 0
    for user in fixtures.sticky {
      var sticky: GrowthBookStickyBuckets? = GrowthBookStickyBuckets()
      for (step, expected) in zip(fixtures.stickySteps, user.results) {
        let experiment = GrowthBookExperiment(
          key: "sticky", variations: [.number(0), .number(1)], weights: step.weights,
          bucketVersion: step.bucketVersion, minBucketVersion: step.minBucketVersion, variationKeys: ["c", "t"])
        let payload = GrowthBookPayload(features: [
          "sticky-feature": .init(defaultValue: .number(-1), rules: [
            .init(condition: nil, force: nil, coverage: nil, experiment: experiment, hashAttribute: "id", hashVersion: 1, seed: nil)
          ])
        ])
        let evaluation = payload.evaluate("sticky-feature", attributes: ["id": .string(user.id)], sticky: &sticky)
        #expect(evaluation.value == expected.value, "\(user.id) \(step)")
        #expect(evaluation.source == expected.source, "\(user.id) \(step)")
        #expect(evaluation.experiment?.stickyBucketUsed == expected.stickyBucketUsed, "\(user.id) \(step)")
        if expected.stickyBucketUsed == true { kept += 1 }
      }
    }
    #expect(kept > 400)
  }

  /// A visitor who logs in, against the SDK on 403 users (the empty id, a
  /// numeric anonymous id, astral text, 1,000 characters among them): with
  /// sticky bucketing the experiment hashes `anonymousId` while there is no
  /// `id`, keeps the variation through new weights, reads the anonymous
  /// document once logged in (and writes the user's), keeps it on a second
  /// device, and starts afresh as a new visitor; `disableStickyBucketing`
  /// and a run without sticky bucketing use no fallback. The documents at
  /// the end are the SDK's.
  @Test func aVisitorWhoLogsInKeepsTheVariationThroughTheFallbackAttribute() throws {
    let fixtures = try VendorFixtures.growthBook.get()
    var compared = 0, carriedOver = 0
    for journey in fixtures.journeys {
      var sticky: GrowthBookStickyBuckets? = GrowthBookStickyBuckets()
      for (step, expected) in zip(fixtures.journeySteps, journey.results) {
        var experiment = GrowthBookExperiment(
          key: "journey", variations: [.string("control"), .string("treatment")], weights: step.weights,
          hashAttribute: "id", hashVersion: 2, variationKeys: ["c", "t"])
        experiment.fallbackAttribute = "anonymousId"
        experiment.disableStickyBucketing = step.disableStickyBucketing ?? false
        let payload = GrowthBookPayload(features: [
          "journey": .init(defaultValue: .string("off"), rules: [
            .init(condition: nil, force: nil, coverage: nil, experiment: experiment, hashAttribute: "id", hashVersion: 2, seed: nil)
          ])
        ])
        var none: GrowthBookStickyBuckets?
        let evaluation = step.withoutService == true
          ? payload.evaluate("journey", attributes: expected.attributes, sticky: &none)
          : payload.evaluate("journey", attributes: expected.attributes, sticky: &sticky)
        let label = "\(expected.attributes) \(step)"
        #expect(evaluation.value == expected.value, "\(label)")
        #expect(evaluation.source == expected.source, "\(label)")
        #expect(evaluation.experiment?.stickyBucketUsed == expected.stickyBucketUsed, "\(label)")
        #expect(evaluation.experiment?.bucket == expected.bucket, "\(label)")
        #expect(evaluation.experiment?.hashAttribute == expected.hashAttribute, "\(label)")
        #expect(evaluation.experiment?.hashValue == expected.hashValue.flatMap(GrowthBookExperiment.hashValue), "\(label)")
        if expected.attributes["id"] != nil, expected.stickyBucketUsed == true { carriedOver += 1 }
        compared += 1
      }
      #expect(sticky?.documents == journey.documents, "\(journey.results.first?.attributes ?? [:])")
    }
    #expect(compared == 403 * 7)
    #expect(carriedOver > 390)
  }
}
