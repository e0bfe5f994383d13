import Bucketing
import Foundation
import JSONDocument
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

  /// Every experiment of an Optimizely datafile, then (with `flags`) every
  /// feature flag, in the datafile's order. A flag's row names the flag; its
  /// variation is "on" or "off" with the rule that decided.
  package static func optimizely(
    _ datafile: OptimizelyDatafile, ids: [String], attributes: [String: AttributeValue], flags includeFlags: Bool = true
  ) -> [Line] {
    let service = OptimizelyDecisionService(datafile: datafile)
    return ids.flatMap { id in
      var profile: [String: String]? = nil
      let experiments = datafile.allExperiments.map { experiment in
        let decision = service.decide(experiment: experiment.key, userID: id, attributes: attributes, profile: &profile)
        return Row(
          id: id, experiment: experiment.key, variation: decision.variation?.key, bucket: decision.bucket.map(Double.init),
          reason: decision.reason.rawValue)
      }
      let flags = !includeFlags ? [] : datafile.featureFlags.compactMap { flag -> Row? in
        guard let decision = service.feature(flag.key, userID: id, attributes: attributes, profile: &profile) else {
          return nil
        }
        return Row(
          id: id, experiment: flag.key, variation: decision.isEnabled ? "on" : "off", bucket: nil,
          reason: decision.source.map { "feature flag, decided by \($0)" } ?? "feature flag, no rule matched")
      }
      return (experiments + flags).map(Line.experiment)
    }
  }

  /// A GrowthBook feature's evaluation for one id: its value, where the SDK
  /// says it came from, and the id of the rule that decided ("" for the default).
  package struct FeatureRow {
    let id: String
    let feature: String
    let value: AttributeValue
    let source: String
    let rule: String

    package var json: OrderedJSON {
      .object([
        ("id", .string(id)), ("feature", .string(feature)), ("value", Self.json(value)), ("source", .string(source)),
        ("rule", .string(rule)),
      ])
    }

    package var text: String {
      "\(id) \(feature) = \(Self.json(value).renderedOnOneLine()) (\(source)\(rule.isEmpty ? "" : ", rule \(rule)"))"
    }

    /// A feature's value as JSON, an object's members by key.
    static func json(_ value: AttributeValue) -> OrderedJSON {
      switch value {
      case .null: .null
      case .bool(let flag): .bool(flag)
      case .number(let number): .number(number)
      case .string(let text): .string(text)
      case .array(let values): .array(values.map(json))
      case .object(let members): .object(members.keys.sorted().map { ($0, json(members[$0]!)) })
      }
    }
  }

  /// A line `bench bucket` prints: an experiment's decision, or a feature's value.
  package enum Line {
    case experiment(Row)
    case feature(FeatureRow)

    package var json: OrderedJSON {
      switch self {
      case .experiment(let row): row.json
      case .feature(let row): row.json
      }
    }

    package var text: String {
      switch self {
      case .experiment(let row): row.text
      case .feature(let row): row.text
      }
    }
  }

  /// Every feature of a GrowthBook payload, sorted by key, evaluated as the
  /// SDK evaluates it (the first rule that applies decides): a line per
  /// experiment rule, whose variation is its meta key (else its index) where
  /// that rule decided and null where it did not, then the feature's value.
  /// The user's attributes are `attributes` with `id` set to the id; a rule
  /// hashed on another attribute reads it from them.
  package static func growthBook(_ payload: GrowthBookPayload, ids: [String], attributes: [String: AttributeValue]) -> [Line] {
    ids.flatMap { id in
      var userAttributes = attributes
      userAttributes["id"] = .string(id)
      return payload.features.keys.sorted().flatMap { key -> [Line] in
        var sticky: GrowthBookStickyBuckets? = nil
        let evaluation = payload.evaluate(key, attributes: userAttributes, sticky: &sticky)
        let rules = payload.features[key]!.rules
        let experiments = zip(rules, evaluation.rules).compactMap { rule, outcome -> Line? in
          guard let experiment = rule.experiment else { return nil }
          switch outcome {
          case .experiment(let result) where result.inExperiment:
            let variation = experiment.variationKey(result.variationID)
            return .experiment(Row(
              id: id, experiment: experiment.key, variation: variation, bucket: result.bucket, reason: result.reason.rawValue))
          case .experiment(let result):
            return .experiment(Row(id: id, experiment: experiment.key, variation: nil, bucket: nil, reason: result.reason.rawValue))
          case .conditionFailed:
            return .experiment(Row(id: id, experiment: experiment.key, variation: nil, bucket: nil, reason: "condition not met"))
          case .filteredOut:
            return .experiment(Row(id: id, experiment: experiment.key, variation: nil, bucket: nil, reason: "filtered out"))
          case .prerequisiteFailed:
            return .experiment(Row(
              id: id, experiment: experiment.key, variation: nil, bucket: nil, reason: "a prerequisite is not met"))
          case .notReached, .forced, .outsideRollout, .invalid:
            return .experiment(Row(
              id: id, experiment: experiment.key, variation: nil, bucket: nil, reason: "an earlier rule decided the feature"))
          }
        }
        return experiments + [
          .feature(FeatureRow(id: id, feature: key, value: evaluation.value, source: evaluation.source, rule: evaluation.ruleID))
        ]
      }
    }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}

extension BucketDecisions {
  /// Every flag of LaunchDarkly flag data, by the name the file gives it: the
  /// served variation's index as the SDK's `variationDetail` reports it, null
  /// where the SDK serves the caller's default. The context is a single
  /// context of kind "user" whose key is the id, with `attributes`.
  package static func launchDarkly(_ data: LaunchDarklyFlagData, ids: [String], attributes: [String: JSONValue]) -> [Line] {
    let evaluator = LaunchDarklyEvaluator(data: data)
    return ids.flatMap { id in
      let context = LaunchDarklyContext(key: id, attributes: attributes)
      return data.flagNames.map { name -> Line in
        let detail = evaluator.variationDetail(name, context: context)
        return Line.experiment(Row(
          id: id, experiment: name, variation: detail.variationIndex.map(String.init), bucket: detail.bucket, reason: detail.reason))
      }
    }
  }
}

extension BucketDecisions {
  /// Every feature of an Unleash client features response, in the file's
  /// order: the variant's name, "enabled" (on, no variant) or "disabled",
  /// as the engine decides for the context `{"userId": id}` plus `attributes`.
  package static func unleash(_ features: UnleashFeatures, ids: [String], attributes: [String: JSONValue], now: Date) -> [Line] {
    let evaluator = UnleashEvaluator(features: features)
    return ids.flatMap { id in
      let context = UnleashContext(userID: id, attributes: attributes, now: now)
      return features.features.compactMap { feature -> Line? in
        guard let decision = evaluator.decide(feature.name, context: context) else { return nil }
        return Line.experiment(Row(
          id: id, experiment: feature.name, variation: decision.variation, bucket: decision.bucket.map(Double.init), reason: decision.reason))
      }
    }
  }
}

extension BucketDecisions {
  /// Every flag of an Eppo configuration, by key: the assigned variation's
  /// key, null where the SDK returns the caller's default.
  package static func eppo(_ configuration: EppoConfiguration, ids: [String], attributes: [String: JSONValue], now: Date) -> [Line] {
    let evaluator = EppoEvaluator(configuration: configuration)
    return ids.flatMap { id in
      configuration.flags.keys.sorted().map { key -> Line in
        let assignment = evaluator.assign(key, subject: id, attributes: attributes, now: now)
        return Line.experiment(Row(
          id: id, experiment: key, variation: assignment.variationKey, bucket: assignment.shard.map(Double.init), reason: assignment.reason))
      }
    }
  }
}

extension BucketDecisions {
  /// Every feature gate (entity "feature_gate") and experiment (entity
  /// "experiment") of a Statsig specs response: a gate's value as `checkGate`
  /// gives it, "true" or "false"; an experiment's group where the user passed
  /// the deciding rule and its group name is one of the experiment's groups,
  /// else null. An empty id without custom ids is not a user: null everywhere.
  package static func statsig(_ specs: StatsigSpecs, ids: [String], attributes: [String: JSONValue], now: Date) -> [Line] {
    let evaluator = StatsigEvaluator(specs: specs, now: now)
    // Each experiment's groups: the group names its rules mark as experiment groups.
    let groups = Dictionary(specs.rowExperiments.map { name in
      (name, Set(specs.configs[name]?.rules.filter(\.isExperimentGroup).compactMap(\.groupName) ?? []))
    }) { first, _ in first }
    return ids.flatMap { id in
      let user = StatsigUser(userID: id, attributes: attributes)
      let gates = specs.rowGates.map { name -> Line in
        guard user.isValid else {
          return Line.experiment(Row(id: id, experiment: name, variation: nil, bucket: nil, reason: "no user id nor custom id: not a user"))
        }
        let result = evaluator.checkGate(name, user: user)
        return Line.experiment(Row(
          id: id, experiment: name, variation: result.passed ? "true" : "false", bucket: result.bucket.map(Double.init), reason: result.reason))
      }
      let experiments = specs.rowExperiments.map { name -> Line in
        guard user.isValid else {
          return Line.experiment(Row(id: id, experiment: name, variation: nil, bucket: nil, reason: "no user id nor custom id: not a user"))
        }
        let result = evaluator.getExperiment(name, user: user)
        let group = result.passed ? result.groupName.flatMap { groups[name]!.contains($0) ? $0 : nil } : nil
        return Line.experiment(Row(id: id, experiment: name, variation: group, bucket: result.bucket.map(Double.init), reason: result.reason))
      }
      return gates + experiments
    }
  }
}
