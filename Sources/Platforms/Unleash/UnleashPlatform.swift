import Bucketing
import Foundation
import JSONDocument
import Results
import ScenarioFormat

/// Unleash: a client features response per revision, decided by
/// `UnleashEvaluator`; the mobile SDK keeps the last fetch only, and a new
/// group id re-randomizes. Rule page: UnleashRolloutChange.
public enum UnleashPlatform: Platform {
  public static let traits = PlatformTraits(
    name: "unleash", vendorName: "Unleash", rerandomization: "a new group id",
    shareSteps: .init(traffic: 100, weights: 1000, unit: "a rollout in whole percent and variant weights in thousandths"),
    changeRulePage: "UnleashRolloutChange")

  public static let configurationName = "an Unleash client features response"

  /// A toggle per experiment: a gradual rollout (flexibleRollout, whole
  /// percent, default stickiness) with the audience as constraints and the
  /// variations as the strategy's variants (weights in thousandths), hashed
  /// with the group id. Paused: disabled. Concluded: 100% and the winner.
  public static func configuration(_ revision: DashboardRevision) -> UnleashEvaluator {
    var features: [OrderedJSON] = []
    for experiment in revision.experiments {
      var constraints: [OrderedJSON] = experiment.audience.attributes.keys.sorted().map { name in
        .object([("contextName", .string(name)), ("operator", .string("IN")), ("values", .array(experiment.audience.attributes[name]!.map(OrderedJSON.string)))])
      }
      if let minimum = experiment.audience.minimumAppVersion {
        constraints.append(.object([
          ("contextName", .string("app_version")), ("operator", .string("SEMVER_LT")), ("value", .string(minimum)), ("inverted", .bool(true)),
        ]))
      }
      let rollout: Int, variants: [OrderedJSON]
      if let winner = experiment.winner {
        rollout = 100
        variants = [.object([("name", .string(winner)), ("weight", .integer(1000)), ("stickiness", .string("default"))])]
      } else {
        rollout = Int((experiment.traffic * 100).rounded())
        var start = 0
        variants = zip(experiment.variations, VendorShares.boundaries(VendorShares.split(experiment), steps: 1000)).map { variation, end in
          defer { start = end }
          return .object([("name", .string(variation.name)), ("weight", .integer(end - start)), ("stickiness", .string("default"))])
        }
      }
      features.append(.object([
        ("name", .string(experiment.name)), ("enabled", .bool(experiment.status != .paused)),
        ("strategies", .array([.object([
          ("name", .string("flexibleRollout")),
          ("parameters", .object([
            ("rollout", .string(String(rollout))), ("stickiness", .string("default")), ("groupId", .string(VendorShares.salt(experiment))),
          ])),
          ("constraints", .array(constraints)), ("variants", .array(variants)),
        ])])),
        ("variants", .array([])),
      ]))
    }
    let file = VendorShares.data(.object([("version", .integer(2)), ("features", .array(features))]))
    return UnleashEvaluator(features: try! UnleashFeatures(json: file))
  }

  public static func context(attributes: [String: AttributeValue]) -> UnleashContext {
    UnleashContext(userID: "", attributes: attributes.mapValues(\.jsonValue), now: DashboardRevision.clock)
  }

  public static func context(_ context: UnleashContext, id: String) -> UnleashContext {
    var context = context
    context.userId = id
    return context
  }

  /// The variant's name; a toggle that is merely on or off serves none.
  public static func variation(
    of experiment: String, in configuration: UnleashEvaluator, id: String, context: UnleashContext, store: inout Void
  ) -> String? {
    let served = configuration.decide(experiment, context: context)?.variation
    return served == "enabled" || served == "disabled" ? nil : served
  }

  /// Every feature, in the file's order: the variant's name, "enabled" (on,
  /// no variant) or "disabled", as the engine decides for the context
  /// `{"userId": id}` plus the attributes.
  public static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
  {
    let features = try UnleashFeatures(json: config)
    let evaluator = UnleashEvaluator(features: features)
    let lines = ids.flatMap { id in
      let context = UnleashContext(userID: id, attributes: attributes.json, now: now)
      return features.features.compactMap { feature -> BucketLine? in
        guard let decision = evaluator.decide(feature.name, context: context) else { return nil }
        return .experiment(BucketRow(
          id: id, experiment: feature.name, variation: decision.variation, bucket: decision.bucket.map(Double.init), reason: decision.reason))
      }
    }
    return BucketDecisions(lines: lines, problems: features.problems)
  }
}
