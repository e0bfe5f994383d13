import Bucketing
import Foundation
import JSONDocument
import Results
import ScenarioFormat

/// Eppo: a universal flag configuration per revision, evaluated by
/// `EppoEvaluator`; the mobile SDK keeps the last fetch only, and a new salt
/// re-randomizes. Rule page: EppoSplitChange.
public enum EppoPlatform: Platform {
  public static let traits = PlatformTraits(
    name: "eppo", vendorName: "Eppo", rerandomization: "a new salt",
    shareSteps: .init(traffic: 10_000, weights: 10_000, unit: "10,000 shards"),
    changeRulePage: "EppoSplitChange")

  public static let configurationName = "an Eppo universal flag configuration"

  /// A flag per experiment with one allocation: the audience as its rule,
  /// and per variation a split of two shards, the traffic's (its own salt)
  /// and the variation's range of 10,000 shards (the experiment's salt).
  /// Paused: disabled. Concluded: one split without shards serves the winner.
  public static func configuration(_ revision: DashboardRevision) -> EppoEvaluator {
    func range(_ start: Int, _ end: Int) -> OrderedJSON { .object([("start", .integer(start)), ("end", .integer(end))]) }
    var flags: [(String, OrderedJSON)] = []
    for experiment in revision.experiments {
      let salt = VendorShares.salt(experiment)
      var conditions: [OrderedJSON] = experiment.audience.attributes.keys.sorted().map { name in
        .object([("attribute", .string(name)), ("operator", .string("ONE_OF")), ("value", .array(experiment.audience.attributes[name]!.map(OrderedJSON.string)))])
      }
      if let minimum = experiment.audience.minimumAppVersion {
        conditions.append(.object([("attribute", .string("app_version")), ("operator", .string("GTE")), ("value", .string(minimum))]))
      }
      var splits: [OrderedJSON] = []
      if let winner = experiment.winner {
        splits.append(.object([("variationKey", .string(winner)), ("shards", .array([]))]))
      } else {
        let traffic = Int((experiment.traffic * 10_000).rounded())
        var start = 0
        for (variation, end) in zip(experiment.variations, VendorShares.boundaries(VendorShares.split(experiment), steps: 10_000)) {
          splits.append(.object([
            ("variationKey", .string(variation.name)),
            ("shards", .array([
              .object([("salt", .string("\(salt)-traffic")), ("ranges", .array([range(0, traffic)]))]),
              .object([("salt", .string("\(salt)-split")), ("ranges", .array([range(start, end)]))]),
            ])),
          ]))
          start = end
        }
      }
      let rules: [OrderedJSON] = conditions.isEmpty ? [] : [.object([("conditions", .array(conditions))])]
      flags.append((experiment.name, .object([
        ("key", .string(experiment.name)), ("enabled", .bool(experiment.status != .paused)), ("variationType", .string("STRING")),
        ("variations", .object(experiment.variations.map { ($0.name, .object([("key", .string($0.name)), ("value", .string($0.name))])) })),
        ("totalShards", .integer(10_000)),
        ("allocations", .array([.object([("key", .string("main")), ("rules", .array(rules)), ("splits", .array(splits))])])),
      ])))
    }
    let file = VendorShares.data(.object([("format", .string("SERVER")), ("flags", .object(flags))]))
    return EppoEvaluator(configuration: try! EppoConfiguration(json: file))
  }

  /// The subject's attributes; the id is the subject key, given apart.
  public static func context(attributes: [String: AttributeValue]) -> [String: JSONValue] {
    attributes.mapValues(\.jsonValue)
  }

  public static func context(_ context: [String: JSONValue], id: String) -> [String: JSONValue] {
    context
  }

  /// The assigned variation's key, which is the variation's name.
  public static func variation(
    of experiment: String, in configuration: EppoEvaluator, id: String, context: [String: JSONValue], store: inout Void
  ) -> String? {
    configuration.assign(experiment, subject: id, attributes: context, now: DashboardRevision.clock).variationKey
  }

  public static func checkAttributes(_ attributes: [String: JSONValue]) throws(PlatformInputError) {
    for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
      if case .array = value {
        throw PlatformInputError("--attributes: '\(name)' is an array; Eppo's subject attributes hold strings, numbers and booleans")
      }
      if case .object = value {
        throw PlatformInputError("--attributes: '\(name)' is an object; Eppo's subject attributes hold strings, numbers and booleans")
      }
    }
  }

  /// Every flag, by key: the assigned variation's key, null where the SDK
  /// returns the caller's default. Null attributes count as absent, as the
  /// SDK's attributes read them.
  public static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
  {
    let configuration = try EppoConfiguration(json: config)
    let members = attributes.json.filter { $0.value != .null }
    let evaluator = EppoEvaluator(configuration: configuration)
    let lines = ids.flatMap { id in
      configuration.flags.keys.sorted().map { key -> BucketLine in
        let assignment = evaluator.assign(key, subject: id, attributes: members, now: now)
        return .experiment(BucketRow(
          id: id, experiment: key, variation: assignment.variationKey, bucket: assignment.shard.map(Double.init), reason: assignment.reason))
      }
    }
    return BucketDecisions(lines: lines, problems: configuration.problems)
  }
}
