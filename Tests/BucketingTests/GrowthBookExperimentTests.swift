import Bucketing
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
    let fixtures = try VendorFixtures.load("growthbook", as: GrowthBookFixtures.self)
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
    let fixtures = try VendorFixtures.load("growthbook", as: GrowthBookFixtures.self)
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
}
