// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// The `download_config_specs` response (v1) Statsig's server SDKs evaluate:
/// gates, dynamic configs (experiments among them) and layers as lists of
/// specs, each with its rules and their conditions.
///
/// As the SDK does, a spec using a condition type or operator it does not
/// know is dropped (then it evaluates as unknown: a gate fails, an
/// experiment has no group), and the last spec of a name wins.
public struct StatsigSpecs: Sendable {
  public let gates: [String: StatsigSpec]
  public let configs: [String: StatsigSpec]
  public let layers: [String: StatsigSpec]
  /// The rows `bench bucket` prints, in the file's order: gates of entity "feature_gate", then experiments.
  public let rowGates: [String]
  public let rowExperiments: [String]
  public let defaultEnvironment: String?
  public let appID: String?
  /// What the SDK tolerates but the file's author did not mean.
  public let problems: [String]

  static let conditionTypes: Set<String> = [
    "public", "fail_gate", "pass_gate", "ip_based", "ua_based", "user_field", "environment_field", "current_time",
    "user_bucket", "unit_id", "multi_pass_gate", "multi_fail_gate", "target_app",
  ]
  static let operators: Set<String> = [
    "gt", "gte", "lt", "lte", "version_gt", "version_gte", "version_lt", "version_lte", "version_eq", "version_neq",
    "any", "none", "any_case_sensitive", "none_case_sensitive", "str_starts_with_any", "str_ends_with_any",
    "str_contains_any", "str_contains_none", "str_matches", "eq", "neq", "before", "after", "on", "in_segment_list",
    "not_in_segment_list", "array_contains_any", "array_contains_none", "array_contains_all", "not_array_contains_all",
  ]

  public init(json data: Data) throws(BucketingError) {
    let reader = VendorJSON(format: "Statsig download_config_specs response")
    let root = try reader.object(try reader.parse(data), "$")
    guard root["time"] != nil, root["time"] != .null else {
      throw reader.error("$", "'time' is required: the SDK refuses a response without it and serves every default")
    }
    var problems: [String] = []
    func specs(_ key: String) throws(BucketingError) -> (byName: [String: StatsigSpec], order: [StatsigSpec]) {
      var byName: [String: StatsigSpec] = [:], order: [StatsigSpec] = []
      let values: [JSONValue] = try reader.optional(root, key, "$", reader.array) ?? []
      for (index, value) in values.enumerated() {
        let spec = try StatsigSpec(value, path: "\(key)[\(index)]", reader: reader)
        order.append(spec)
        if let unknown = spec.unsupported {
          problems.append("\(key)[\(index)] '\(spec.name)' uses \(unknown), which the SDK does not know: it drops the spec, so it evaluates as unknown")
          byName[spec.name] = nil
          continue
        }
        byName[spec.name] = spec
      }
      return (byName, order)
    }
    let gates = try specs("feature_gates"), configs = try specs("dynamic_configs"), layers = try specs("layer_configs")
    self.gates = gates.byName
    self.configs = configs.byName
    self.layers = layers.byName
    rowGates = gates.order.filter { $0.entity == "feature_gate" }.map(\.name)
    rowExperiments = configs.order.filter { $0.entity == "experiment" }.map(\.name)
    defaultEnvironment = try reader.optional(root, "default_environment", "$", reader.string)
    appID = try reader.optional(root, "app_id", "$", reader.string)
    if case .object(let overrides)? = root["overrides"], !overrides.isEmpty {
      problems.append("'overrides' (config mappings) are not modeled: the bench evaluates the specs as listed")
    }
    let names = Set(gates.byName.keys)
    for spec in gates.order + configs.order + layers.order {
      // A pass percentage other than 0 or 100 hashes the spec's salt: a salt the file lost moves every user.
      if spec.isSaltMissing, spec.rules.contains(where: { $0.passPercentage > 0 && $0.passPercentage < 100 }) {
        problems.append(
          "'\(spec.name)' has no salt: the SDK hashes its pass percentages with an empty one, where Statsig's own responses "
            + "give every spec its salt; against a file that has it, every user's bucket moves (check the export kept 'salt')")
      }
      for rule in spec.rules {
        for condition in rule.conditions where ["pass_gate", "fail_gate"].contains(condition.type) {
          if case .string(let gate)? = condition.targetValue, !names.contains(gate) {
            problems.append("'\(spec.name)' checks the gate '\(gate)', which is not in the file: it always fails")
          }
        }
        // passPercentage is a percentage: 0.5 written for half passes one user in 200.
        if rule.passPercentage > 100 {
          problems.append("'\(spec.name)' has a rule with passPercentage \(String(format: "%g", rule.passPercentage)): a percentage above 100, so everyone passes")
        } else if rule.passPercentage > 0, rule.passPercentage < 1 {
          problems.append(
            "'\(spec.name)' has a rule with passPercentage \(String(format: "%g", rule.passPercentage)): a percentage, so \(String(format: "%g", rule.passPercentage))% "
              + "of users pass; half is 50")
        }
        if let delegate = rule.configDelegate, configs.byName[delegate] == nil {
          problems.append("'\(spec.name)' delegates to '\(delegate)', which is not in the file")
        }
      }
    }
    self.problems = problems
  }
}

/// One gate, dynamic config, experiment or layer.
public struct StatsigSpec: Sendable {
  public let name: String
  public let salt: String
  /// Whether the file gives the spec no `salt`: the SDK then hashes with an
  /// empty one, where Statsig's own responses give every spec its salt.
  public let isSaltMissing: Bool
  public let enabled: Bool
  public let entity: String?
  public let rules: [StatsigRule]
  /// The first condition type or operator the SDK does not know, if any.
  let unsupported: String?

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    name = try reader.required(members, "name", path, reader.string)
    salt = try reader.optional(members, "salt", path, reader.string) ?? ""
    isSaltMissing = members["salt"] == nil
    enabled = try reader.optional(members, "enabled", path, reader.bool) ?? false
    entity = try reader.optional(members, "entity", path, reader.string)
    rules = try reader.optional(members, "rules", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try StatsigRule(value, path: path, reader: reader) }
    } ?? []
    unsupported = rules.lazy.flatMap(\.conditions).compactMap { condition -> String? in
      if let op = condition.op, !StatsigSpecs.operators.contains(op) { return "the operator '\(op)'" }
      if !StatsigSpecs.conditionTypes.contains(condition.type) { return "the condition type '\(condition.type)'" }
      return nil
    }.first
  }
}

/// A rule: conditions that must all hold, then a pass percentage.
public struct StatsigRule: Sendable {
  public let id: String
  /// The salt the pass percentage hashes with: `salt`, else the rule's id.
  public let salt: String
  public let passPercentage: Double
  public let conditions: [StatsigCondition]
  public let groupName: String?
  public let isExperimentGroup: Bool
  public let configDelegate: String?
  /// Which id the pass percentage hashes: "userID" or a custom id type.
  public let idType: String
  let unit: StatsigIDType

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    id = try reader.optional(members, "id", path, reader.string) ?? ""
    if members.keys.contains("salt") {
      salt = try reader.required(members, "salt", path, reader.string)
    } else {
      salt = id
    }
    passPercentage = try reader.optional(members, "passPercentage", path, reader.number) ?? 0
    conditions = try reader.optional(members, "conditions", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try StatsigCondition(value, path: path, reader: reader) }
    } ?? []
    groupName = try reader.optional(members, "groupName", path, reader.string)
    isExperimentGroup = try reader.optional(members, "isExperimentGroup", path, reader.bool) ?? false
    configDelegate = try reader.optional(members, "configDelegate", path, reader.string)
    idType = try reader.optional(members, "idType", path, reader.string) ?? "userID"
    unit = StatsigIDType(idType)
  }
}
