import Bucketing
import Foundation
import JSONDocument
import Results
import ScenarioFormat

/// LaunchDarkly: flag data per revision, evaluated by
/// `LaunchDarklyEvaluator`; the mobile SDK keeps the last fetch only, and a
/// new rollout seed re-randomizes. Rule page: LaunchDarklyRolloutChange.
public enum LaunchDarklyPlatform: Platform {
  public static let traits = PlatformTraits(
    name: "launchdarkly", vendorName: "LaunchDarkly", rerandomization: "a new rollout seed",
    shareSteps: .init(traffic: 100_000, weights: 100_000, unit: "weights in 100,000ths"),
    changeRulePage: "LaunchDarklyRolloutChange")

  public static let configurationName = "LaunchDarkly flag data ({\"flags\", \"segments\"})"

  /// A flag per experiment: its variations, then "__outside__" for users the
  /// experiment does not take; a rule with the audience's clauses serves the
  /// rollout (weights in 100,000ths), and the fallthrough serves "__outside__".
  /// Paused: the flag is off without an off variation. Concluded: the rule
  /// serves the winner. A new bucket version is a new rollout seed.
  public static func configuration(_ revision: DashboardRevision) -> LaunchDarklyEvaluator {
    var flags: [(String, OrderedJSON)] = []
    for experiment in revision.experiments {
      let outside = experiment.variations.count
      let outcome: (String, OrderedJSON)
      if let winner = experiment.winner, let index = experiment.variations.firstIndex(where: { $0.name == winner }) {
        outcome = ("variation", .integer(index))
      } else {
        var weights: [OrderedJSON] = []
        var start = 0
        for (index, end) in VendorShares.boundaries(VendorShares.shares(experiment), steps: 100_000).enumerated() {
          weights.append(.object([("variation", .integer(index)), ("weight", .integer(end - start))]))
          start = end
        }
        weights.append(.object([("variation", .integer(outside)), ("weight", .integer(100_000 - start))]))
        var rollout: [(String, OrderedJSON)] = [("variations", .array(weights))]
        if experiment.bucketVersion > 0 { rollout.append(("seed", .integer(experiment.bucketVersion))) }
        outcome = ("rollout", .object(rollout))
      }
      var clauses: [OrderedJSON] = experiment.audience.attributes.keys.sorted().map { name in
        .object([("attribute", .string(name)), ("op", .string("in")), ("values", .array(experiment.audience.attributes[name]!.map(OrderedJSON.string)))])
      }
      if let minimum = experiment.audience.minimumAppVersion {
        clauses.append(.object([
          ("attribute", .string("app_version")), ("op", .string("semVerLessThan")), ("values", .array([.string(minimum)])),
          ("negate", .bool(true)),
        ]))
      }
      var flag: [(String, OrderedJSON)] = [
        ("key", .string(experiment.name)), ("version", .integer(1)), ("on", .bool(experiment.status != .paused)),
        ("salt", .string(experiment.name)),
        ("variations", .array(experiment.variations.map { .string($0.name) } + [.string("__outside__")])),
      ]
      if clauses.isEmpty {
        flag.append(("fallthrough", .object([outcome])))
      } else {
        flag.append(("rules", .array([.object([("id", .string("audience")), ("clauses", .array(clauses)), outcome])])))
        flag.append(("fallthrough", .object([("variation", .integer(outside))])))
      }
      flags.append((experiment.name, .object(flag)))
    }
    let file = VendorShares.data(.object([("flags", .object(flags)), ("segments", .object([]))]))
    return LaunchDarklyEvaluator(data: try! LaunchDarklyFlagData(json: file))
  }

  /// A single context of kind "user" with the attributes.
  public static func context(attributes: [String: AttributeValue]) -> LaunchDarklyContext {
    LaunchDarklyContext(key: "", attributes: attributes.mapValues(\.jsonValue))
  }

  public static func context(_ context: LaunchDarklyContext, id: String) -> LaunchDarklyContext {
    context.with(key: id)
  }

  /// The served variation's value, which is the variation's name.
  public static func variation(
    of experiment: String, in configuration: LaunchDarklyEvaluator, id: String, context: LaunchDarklyContext, store: inout Void
  ) -> String? {
    let index = configuration.variationDetail(experiment, context: context).variationIndex
    let variations = configuration.data.flags[experiment]?.variations ?? []
    return index.flatMap { variations.indices.contains($0) ? variations[$0].string : nil }
  }

  public static func checkAttributes(_ attributes: [String: JSONValue]) throws(PlatformInputError) {
    if let name = ["key", "kind", "_meta", "anonymous"].first(where: { attributes[$0] != nil }) {
      throw PlatformInputError(
        "--attributes: '\(name)' is not an attribute of a LaunchDarkly context (the key is the id, the kind is \"user\"): remove it")
    }
  }

  /// Every flag, by the name the file gives it: the served variation's index
  /// as the SDK's `variationDetail` reports it, null where the SDK serves the
  /// caller's default. The context is a single context of kind "user" whose
  /// key is the id, with the attributes.
  public static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
  {
    let data = try LaunchDarklyFlagData(json: config)
    let evaluator = LaunchDarklyEvaluator(data: data)
    let lines = ids.flatMap { id in
      let context = LaunchDarklyContext(key: id, attributes: attributes.json)
      return data.flagNames.map { name -> BucketLine in
        let detail = evaluator.variationDetail(name, context: context)
        let value = detail.variationIndex.flatMap { index in data.flags[name]?.variations[index] }.map(BucketRow.valueText)
        return .experiment(BucketRow(
          id: id, experiment: name, variation: detail.variationIndex.map(String.init), value: value, bucket: detail.bucket,
          reason: detail.reason))
      }
    }
    return BucketDecisions(lines: lines, problems: data.problems)
  }
}
