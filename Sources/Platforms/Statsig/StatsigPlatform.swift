import Bucketing
import Foundation
import JSONDocument
import Results
import ScenarioFormat

/// Statsig: a download_config_specs response per revision, evaluated by
/// `StatsigEvaluator`; `keepDeviceValue` is the app's choice, and a new salt
/// re-randomizes. Rule page: StatsigSaltChange.
public enum StatsigPlatform: Platform {
  public static let traits = PlatformTraits(
    name: "statsig", vendorName: "Statsig", canKeepDecisions: true, rerandomization: "a new salt",
    shareSteps: .init(traffic: 1000, weights: 1000, unit: "1,000 user buckets"),
    changeRulePage: "StatsigSaltChange")

  public static let configurationName = "a Statsig download_config_specs response (v1)"

  /// An experiment per service experiment: a targeting gate holding the
  /// audience (the experiment's first rule fails its users out), then an
  /// allocation rule on 1,000 user buckets of its own salt, then a group rule
  /// per variation on the buckets of the experiment's salt. Paused: disabled.
  /// Concluded: one rule gives everyone in the audience the winner. A new
  /// bucket version is a new salt.
  public static func configuration(_ revision: DashboardRevision) -> StatsigEvaluator {
    func condition(_ type: String, _ op: String?, _ target: OrderedJSON, field: String? = nil, salt: String? = nil) -> OrderedJSON {
      var members: [(String, OrderedJSON)] = [("type", .string(type)), ("operator", op.map(OrderedJSON.string) ?? .null), ("targetValue", target)]
      if let field { members.append(("field", .string(field))) }
      if let salt { members.append(("additionalValues", .object([("salt", .string(salt))]))) }
      members.append(("idType", .string("userID")))
      return .object(members)
    }
    func rule(_ id: String, _ conditions: [OrderedJSON], group: String? = nil) -> OrderedJSON {
      var members: [(String, OrderedJSON)] = [
        ("id", .string(id)), ("salt", .string(id)), ("passPercentage", .integer(100)), ("conditions", .array(conditions)),
        ("idType", .string("userID")),
      ]
      if let group { members += [("groupName", .string(group)), ("isExperimentGroup", .bool(true))] }
      return .object(members)
    }
    var gates: [OrderedJSON] = [], configs: [OrderedJSON] = []
    for experiment in revision.experiments {
      let salt = VendorShares.salt(experiment)
      var rules: [OrderedJSON] = []
      var audience: [OrderedJSON] = experiment.audience.attributes.keys.sorted().map { name in
        condition("user_field", "any", .array(experiment.audience.attributes[name]!.map(OrderedJSON.string)), field: name)
      }
      if let minimum = experiment.audience.minimumAppVersion {
        audience.append(condition("user_field", "version_gte", .string(minimum), field: "appVersion"))
      }
      if !audience.isEmpty {
        let gate = "\(experiment.name)::audience"
        gates.append(.object([
          ("name", .string(gate)), ("salt", .string(gate)), ("enabled", .bool(true)), ("entity", .string("feature_gate")),
          ("rules", .array([rule("audience", audience)])),
        ]))
        rules.append(rule("targeting", [condition("fail_gate", nil, .string(gate))]))
      }
      if let winner = experiment.winner {
        rules.append(rule("launched", [condition("public", nil, .null)], group: winner))
      } else {
        let allocated = Int((experiment.traffic * 1000).rounded())
        if allocated < 1000 {
          rules.append(rule("allocation", [condition("user_bucket", "gte", .integer(allocated), salt: "\(salt).allocation")]))
        }
        var start = 0
        for (variation, end) in zip(experiment.variations, VendorShares.boundaries(VendorShares.split(experiment), steps: 1000)) {
          rules.append(rule(
            "group.\(variation.name)",
            [condition("user_bucket", "gte", .integer(start), salt: salt), condition("user_bucket", "lt", .integer(end), salt: salt)],
            group: variation.name))
          start = end
        }
      }
      configs.append(.object([
        ("name", .string(experiment.name)), ("salt", .string(salt)), ("enabled", .bool(experiment.status != .paused)),
        ("entity", .string("experiment")), ("rules", .array(rules)),
      ]))
    }
    let file = VendorShares.data(.object([
      ("time", .integer(0)), ("feature_gates", .array(gates)), ("dynamic_configs", .array(configs)), ("layer_configs", .array([])),
    ]))
    return StatsigEvaluator(specs: try! StatsigSpecs(json: file), now: DashboardRevision.clock)
  }

  /// A user whose `appVersion` is the app's version and whose custom fields
  /// are the other attributes.
  public static func context(attributes: [String: AttributeValue]) -> StatsigUser {
    var custom = attributes.mapValues(\.jsonValue)
    let appVersion = custom.removeValue(forKey: "app_version")
    return StatsigUser(userID: "", attributes: ["appVersion": appVersion ?? .null, "custom": .object(custom)])
  }

  public static func context(_ context: StatsigUser, id: String) -> StatsigUser {
    context.with(userID: id)
  }

  /// `keepDeviceValue`: the group the device keeps for each experiment while
  /// the experiment is listed, when the app asks for it.
  public static func store(sticky: Bool) -> [String: String]? {
    sticky ? [:] : nil
  }

  /// The group of the rule that passed, which is the variation's name.
  public static func variation(
    of experiment: String, in configuration: StatsigEvaluator, id: String, context: StatsigUser, store: inout [String: String]?
  ) -> String? {
    if let kept = store?[experiment], configuration.specs.configs[experiment] != nil { return kept }
    let result = configuration.getExperiment(experiment, user: context)
    let group = result.passed ? result.groupName : nil
    if let group, store != nil { store?[experiment] = group }
    return group
  }

  public static func checkAttributes(_ attributes: [String: JSONValue]) throws(PlatformInputError) {
    if attributes["userID"] != nil {
      throw PlatformInputError("--attributes: 'userID' is the id: give it as an argument, not in --attributes")
    }
    for name in ["custom", "privateAttributes", "customIDs"] where attributes[name].map({ $0.object == nil && $0 != .null }) ?? false {
      throw PlatformInputError("--attributes: '\(name)' must be an object, e.g. {\"\(name)\": {\"plan\": \"pro\"}}")
    }
  }

  /// Every feature gate (entity "feature_gate") and experiment (entity
  /// "experiment"): a gate's value as `checkGate` gives it, "true" or
  /// "false"; an experiment's group where the user passed the deciding rule
  /// and its group name is one of the experiment's groups, else null. An
  /// empty id without custom ids is not a user: null everywhere.
  public static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
  {
    let specs = try StatsigSpecs(json: config)
    let evaluator = StatsigEvaluator(specs: specs, now: now)
    // Each experiment's groups: the group names its rules mark as experiment groups.
    let groups = Dictionary(specs.rowExperiments.map { name in
      (name, Set(specs.configs[name]?.rules.filter(\.isExperimentGroup).compactMap(\.groupName) ?? []))
    }) { first, _ in first }
    let lines = ids.flatMap { id in
      let user = StatsigUser(userID: id, attributes: attributes.json)
      func notAUser(_ name: String) -> BucketLine {
        .experiment(BucketRow(id: id, experiment: name, variation: nil, bucket: nil, reason: "no user id nor custom id: not a user"))
      }
      let gates = specs.rowGates.map { name -> BucketLine in
        guard user.isValid else { return notAUser(name) }
        let result = evaluator.checkGate(name, user: user)
        return .experiment(BucketRow(
          id: id, experiment: name, variation: result.passed ? "true" : "false", bucket: result.bucket.map(Double.init),
          reason: result.reason))
      }
      let experiments = specs.rowExperiments.map { name -> BucketLine in
        guard user.isValid else { return notAUser(name) }
        let result = evaluator.getExperiment(name, user: user)
        let group = result.passed ? result.groupName.flatMap { groups[name]!.contains($0) ? $0 : nil } : nil
        return .experiment(BucketRow(id: id, experiment: name, variation: group, bucket: result.bucket.map(Double.init), reason: result.reason))
      }
      return gates + experiments
    }
    return BucketDecisions(lines: lines, problems: specs.problems)
  }
}
