import Bucketing
import Results

/// What a hash-bucketed service decides for ids, experiment by experiment,
/// and why: the debug screen of those frameworks, for `bench bucket`.
package struct BucketDecisions {
  /// One id in one experiment.
  package struct Row {
    let id: String
    let experiment: String
    let variation: String?
    /// Optimizely's bucket (0 ..< 10,000) or GrowthBook's hash in [0, 1).
    let bucket: Double?
    let reason: String

    package var json: OrderedJSON {
      .object([
        ("id", .string(id)), ("experiment", .string(experiment)), ("variation", variation.map(OrderedJSON.string) ?? .null),
        ("bucket", .number(bucket)), ("reason", .string(reason)),
      ])
    }

    package var text: String {
      let bucketText = bucket.map { value in
        value == value.rounded() ? "bucket \(Int(value)), " : "hash \(value), "
      } ?? ""
      return "\(id) \(experiment): \(variation ?? "no variation") (\(bucketText)\(reason))"
    }
  }

  /// Every experiment of an Optimizely datafile, then every feature flag, in
  /// the datafile's order. A flag's row names the flag; its variation is
  /// "on" or "off" with the rule that decided.
  package static func optimizely(_ datafile: OptimizelyDatafile, ids: [String], attributes: [String: AttributeValue]) -> [Row] {
    let service = OptimizelyDecisionService(datafile: datafile)
    return ids.flatMap { id in
      var profile: [String: String]? = nil
      let experiments = datafile.allExperiments.map { experiment in
        let decision = service.decide(experiment: experiment.key, userID: id, attributes: attributes, profile: &profile)
        return Row(
          id: id, experiment: experiment.key, variation: decision.variation?.key, bucket: decision.bucket.map(Double.init),
          reason: decision.reason.rawValue)
      }
      let flags = datafile.featureFlags.compactMap { flag -> Row? in
        guard let decision = service.feature(flag.key, userID: id, attributes: attributes, profile: &profile) else {
          return nil
        }
        return Row(
          id: id, experiment: flag.key, variation: decision.isEnabled ? "on" : "off", bucket: nil,
          reason: decision.source.map { "feature flag, decided by \($0)" } ?? "feature flag, no rule matched")
      }
      return experiments + flags
    }
  }

  /// Every experiment rule of a GrowthBook payload, features sorted by key.
  /// The id is the user's `id` attribute (and the rule's hash attribute).
  package static func growthBook(_ payload: GrowthBookPayload, ids: [String], attributes: [String: AttributeValue]) -> [Row] {
    ids.flatMap { id in
      payload.features.keys.sorted().flatMap { key in
        payload.features[key]!.rules.compactMap { rule -> Row? in
          guard let experiment = rule.experiment else { return nil }
          var userAttributes = attributes
          userAttributes["id"] = .string(id)
          userAttributes[experiment.hashAttribute] = .string(id)
          var sticky: GrowthBookExperiment.StickyAssignments? = nil
          if let condition = rule.condition, !GrowthBookCondition.evaluate(condition, attributes: userAttributes) {
            return Row(id: id, experiment: experiment.key, variation: nil, bucket: nil, reason: "condition not met")
          }
          let result = experiment.run(attributes: userAttributes, sticky: &sticky)
          let variation = result.inExperiment ? (experiment.variationKeys?[safe: result.variationID] ?? String(result.variationID)) : nil
          return Row(id: id, experiment: experiment.key, variation: variation, bucket: result.bucket, reason: result.reason.rawValue)
        }
      }
    }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
