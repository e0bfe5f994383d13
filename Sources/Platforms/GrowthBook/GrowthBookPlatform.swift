import Bucketing
import Foundation
import JSONDocument
import ScenarioFormat

/// GrowthBook: a features payload per revision, evaluated by
/// `GrowthBookPayload`; sticky bucketing is the app's choice, and a new
/// bucket version re-randomizes. Rule page: GrowthBookWeightChange.
public enum GrowthBookPlatform: Platform {
  public static let traits = PlatformTraits(
    name: "growthbook", vendorName: "GrowthBook", canKeepDecisions: true, rerandomization: "a new bucket version",
    changeRulePage: "GrowthBookWeightChange")

  public static let configurationName = "a GrowthBook features payload"

  /// A features payload for one revision: a feature per experiment, whose
  /// values are the variation names. A running experiment is an experiment
  /// rule (weights normalized, coverage the traffic, hash version 2, the
  /// audience as its condition); a concluded one a force rule serving the
  /// winner to its audience; a paused one has no rule.
  public static func configuration(_ revision: DashboardRevision) -> GrowthBookPayload {
    var features: [String: GrowthBookPayload.Feature] = [:]
    for experiment in revision.experiments {
      let condition = condition(experiment.audience)
      var rules: [GrowthBookPayload.Rule] = []
      if let winner = experiment.winner {
        rules.append(.init(
          condition: condition, force: .string(winner), coverage: nil, experiment: nil, hashAttribute: "id", hashVersion: 2,
          seed: nil))
      } else if experiment.status == .running {
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        rules.append(.init(
          condition: condition, force: nil, coverage: experiment.traffic,
          experiment: GrowthBookExperiment(
            key: experiment.name, variations: experiment.variations.map { .string($0.name) },
            weights: experiment.variations.map { $0.weight / total }, coverage: experiment.traffic, condition: condition,
            hashVersion: 2, bucketVersion: experiment.bucketVersion, variationKeys: experiment.variations.map(\.name)),
          hashAttribute: "id", hashVersion: 2, seed: nil))
      }
      features[experiment.name] = .init(defaultValue: .null, rules: rules)
    }
    return GrowthBookPayload(features: features)
  }

  private static func condition(_ audience: ServiceAudience) -> AttributeValue? {
    var members: [String: AttributeValue] = [:]
    for (name, values) in audience.attributes { members[name] = .object(["$in": .array(values.map(AttributeValue.string))]) }
    if let minimum = audience.minimumAppVersion { members["app_version"] = .object(["$vgte": .string(minimum)]) }
    return members.isEmpty ? nil : .object(members)
  }

  public static func context(attributes: [String: AttributeValue]) -> [String: AttributeValue] {
    attributes
  }

  /// The attributes with the id as `id`, the attribute experiments hash.
  public static func context(_ context: [String: AttributeValue], id: String) -> [String: AttributeValue] {
    context.merging(["id": .string(id)]) { _, id in id }
  }

  /// Sticky bucket documents, kept only when the app turns sticky bucketing on.
  public static func store(sticky: Bool) -> GrowthBookStickyBuckets? {
    sticky ? GrowthBookStickyBuckets() : nil
  }

  /// The feature's value, which is the variation's name.
  public static func variation(
    of experiment: String, in configuration: GrowthBookPayload, id: String, context: [String: AttributeValue],
    store: inout GrowthBookStickyBuckets?
  ) -> String? {
    configuration.evaluate(experiment, attributes: context, sticky: &store).value.string
  }

  public static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
  {
    let payload = try GrowthBookPayload(json: config)
    return BucketDecisions(lines: lines(payload, ids: ids, attributes: attributes.values), problems: payload.problems)
  }

  /// Every feature of a payload, sorted by key, evaluated as the SDK
  /// evaluates it (the first rule that applies decides): a line per
  /// experiment rule, whose variation is its meta key (else its index), with
  /// the variation's value beside it, where that rule decided and null where
  /// it did not, then the feature's value.
  /// The user's attributes are `attributes` with `id` set to the id; a rule
  /// hashed on another attribute reads it from them.
  public static func lines(_ payload: GrowthBookPayload, ids: [String], attributes: [String: AttributeValue]) -> [BucketLine] {
    ids.flatMap { id in
      var userAttributes = attributes
      userAttributes["id"] = .string(id)
      return payload.features.keys.sorted().flatMap { key -> [BucketLine] in
        var sticky: GrowthBookStickyBuckets? = nil
        let evaluation = payload.evaluate(key, attributes: userAttributes, sticky: &sticky)
        let rules = payload.features[key]!.rules
        let experiments = zip(rules, evaluation.rules).compactMap { rule, outcome -> BucketLine? in
          guard let experiment = rule.experiment else { return nil }
          func row(_ variation: String?, _ bucket: Double?, _ reason: String, value: String? = nil) -> BucketLine {
            .experiment(BucketRow(id: id, experiment: experiment.key, variation: variation, value: value, bucket: bucket, reason: reason))
          }
          switch outcome {
          case .experiment(let result) where result.inExperiment:
            let value = experiment.variations.indices.contains(result.variationID)
              ? BucketRow.valueText(experiment.variations[result.variationID].jsonValue) : nil
            return row(experiment.variationKey(result.variationID), result.bucket, result.reason.rawValue, value: value)
          case .experiment(let result): return row(nil, nil, result.reason.rawValue)
          case .conditionFailed: return row(nil, nil, "condition not met")
          case .filteredOut: return row(nil, nil, "filtered out")
          case .prerequisiteFailed: return row(nil, nil, "a prerequisite is not met")
          case .notReached, .forced, .outsideRollout, .invalid: return row(nil, nil, "an earlier rule decided the feature")
          }
        }
        return experiments + [
          .feature(FeatureRow(id: id, feature: key, value: evaluation.value, source: evaluation.source, rule: evaluation.ruleID))
        ]
      }
    }
  }
}
