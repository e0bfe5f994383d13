import Bucketing
import Foundation
import JSONDocument
import Results
import ScenarioFormat

/// One revision of the dashboard written as each platform's own file (the
/// file its SDK reads), then read back by the Bucketing library's reader for
/// it, so that a simulated launch is decided by the code `bench bucket` runs.
/// The translation is the one a team would make on that dashboard:
/// docs/platforms.md gives it, and where a platform holds shares in steps of
/// its own, `ComparedFramework.granularityNotes` says so.
enum ServiceConfiguration {
  /// Integer boundaries out of `steps`: `shares` (summing to at most 1) laid
  /// end to end from 0, each rounded to the nearest step, so the ranges are
  /// contiguous and the last ends where the shares do.
  static func boundaries(_ shares: [Double], steps: Int) -> [Int] {
    var cumulative = 0.0
    return shares.map { share in
      cumulative += share
      return Int((min(cumulative, 1) * Double(steps)).rounded())
    }
  }

  /// The variations' shares of the whole population: traffic × weight / total.
  static func shares(_ experiment: ServiceExperiment) -> [Double] {
    let total = experiment.variations.reduce(0) { $0 + $1.weight }
    return experiment.variations.map { total > 0 ? experiment.traffic * $0.weight / total : 0 }
  }

  /// The salt, seed or group id an experiment hashes with: its name, and a
  /// new one for each new bucket version.
  static func salt(_ experiment: ServiceExperiment) -> String {
    experiment.bucketVersion == 0 ? experiment.name : "\(experiment.name).v\(experiment.bucketVersion)"
  }

  static func data(_ json: OrderedJSON) -> Data {
    Data(json.renderedOnOneLine().utf8)
  }

  // MARK: - LaunchDarkly

  /// A flag per experiment: its variations, then "__outside__" for users the
  /// experiment does not take; a rule with the audience's clauses serves the
  /// rollout (weights in 100,000ths), and the fallthrough serves "__outside__".
  /// Paused: the flag is off without an off variation. Concluded: the rule
  /// serves the winner. A new bucket version is a new rollout seed.
  static func launchDarkly(_ experiments: [ServiceExperiment]) -> LaunchDarklyFlagData {
    var flags: [(String, OrderedJSON)] = []
    for experiment in experiments {
      let outside = experiment.variations.count
      let served: OrderedJSON
      if let winner = experiment.winner, let index = experiment.variations.firstIndex(where: { $0.name == winner }) {
        served = .integer(index)
      } else {
        let ends = boundaries(shares(experiment), steps: 100_000)
        var weights: [OrderedJSON] = []
        var start = 0
        for (index, end) in ends.enumerated() {
          weights.append(.object([("variation", .integer(index)), ("weight", .integer(end - start))]))
          start = end
        }
        weights.append(.object([("variation", .integer(outside)), ("weight", .integer(100_000 - start))]))
        var rollout: [(String, OrderedJSON)] = [("variations", .array(weights))]
        if experiment.bucketVersion > 0 { rollout.append(("seed", .integer(experiment.bucketVersion))) }
        served = .object(rollout)
      }
      let outcome: (String, OrderedJSON) = served.isInteger ? ("variation", served) : ("rollout", served)
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
    return try! LaunchDarklyFlagData(json: data(.object([("flags", .object(flags)), ("segments", .object([]))])))
  }

  // MARK: - Statsig

  /// An experiment per service experiment: a targeting gate holding the
  /// audience (the experiment's first rule fails its users out), then an
  /// allocation rule on 1,000 user buckets of its own salt, then a group rule
  /// per variation on the buckets of the experiment's salt. Paused: disabled.
  /// Concluded: one rule gives everyone in the audience the winner. A new
  /// bucket version is a new salt.
  static func statsig(_ experiments: [ServiceExperiment]) -> StatsigSpecs {
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
    for experiment in experiments {
      let salt = salt(experiment)
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
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        let groupEnds = boundaries(experiment.variations.map { total > 0 ? $0.weight / total : 0 }, steps: 1000)
        var start = 0
        for (variation, end) in zip(experiment.variations, groupEnds) {
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
    return try! StatsigSpecs(json: data(.object([
      ("time", .integer(0)), ("feature_gates", .array(gates)), ("dynamic_configs", .array(configs)), ("layer_configs", .array([])),
    ])))
  }

  // MARK: - Eppo

  /// A flag per experiment with one allocation: the audience as its rule,
  /// and per variation a split of two shards, the traffic's (its own salt)
  /// and the variation's range of 10,000 shards (the experiment's salt).
  /// Paused: disabled. Concluded: one split without shards serves the winner.
  static func eppo(_ experiments: [ServiceExperiment]) -> EppoConfiguration {
    func range(_ start: Int, _ end: Int) -> OrderedJSON { .object([("start", .integer(start)), ("end", .integer(end))]) }
    var flags: [(String, OrderedJSON)] = []
    for experiment in experiments {
      let salt = salt(experiment)
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
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        var start = 0
        for (variation, end) in zip(experiment.variations, boundaries(experiment.variations.map { total > 0 ? $0.weight / total : 0 }, steps: 10_000)) {
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
    return try! EppoConfiguration(json: data(.object([("format", .string("SERVER")), ("flags", .object(flags))])))
  }

  // MARK: - Unleash

  /// A toggle per experiment: a gradual rollout (flexibleRollout, whole
  /// percent, default stickiness) with the audience as constraints and the
  /// variations as the strategy's variants (weights in thousandths), hashed
  /// with the group id. Paused: disabled. Concluded: 100% and the winner.
  static func unleash(_ experiments: [ServiceExperiment]) -> UnleashFeatures {
    var features: [OrderedJSON] = []
    for experiment in experiments {
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
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        var start = 0
        variants = zip(experiment.variations, boundaries(experiment.variations.map { total > 0 ? $0.weight / total : 0 }, steps: 1000)).map { variation, end in
          defer { start = end }
          return .object([("name", .string(variation.name)), ("weight", .integer(end - start)), ("stickiness", .string("default"))])
        }
      }
      features.append(.object([
        ("name", .string(experiment.name)), ("enabled", .bool(experiment.status != .paused)),
        ("strategies", .array([.object([
          ("name", .string("flexibleRollout")),
          ("parameters", .object([("rollout", .string(String(rollout))), ("stickiness", .string("default")), ("groupId", .string(salt(experiment)))])),
          ("constraints", .array(constraints)), ("variants", .array(variants)),
        ])])),
        ("variants", .array([])),
      ]))
    }
    return try! UnleashFeatures(json: data(.object([("version", .integer(2)), ("features", .array(features))])))
  }
}

extension OrderedJSON {
  fileprivate var isInteger: Bool {
    if case .integer = self { return true }
    return false
  }
}
