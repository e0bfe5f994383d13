// SPDX-License-Identifier: Apache-2.0

import Digests
import Foundation
import JSONDocument

/// Evaluates gates and experiments as Statsig's Python server SDK does: the
/// first rule whose conditions all hold decides (a later rule is never
/// reached, even when the user misses that rule's pass percentage); the pass
/// percentage hashes "SPEC_SALT.RULE_SALT.UNIT_ID" with SHA-256 (its first
/// eight bytes, modulo 10,000, below percentage × 100).
public struct StatsigEvaluator: Sendable {
  public let specs: StatsigSpecs
  /// The clock CURRENT_TIME conditions read, in milliseconds since 1970.
  public let now: Date

  public init(specs: StatsigSpecs, now: Date) {
    self.specs = specs
    self.now = now
  }

  /// What a gate check or an experiment evaluation gives.
  public struct Result: Sendable, Hashable {
    /// The gate's value, or whether the user passed the deciding rule.
    public let passed: Bool
    public let ruleID: String
    public let groupName: String?
    /// The deciding rule's pass-percentage hash (0 ..< 10,000), when it was hashed.
    public let bucket: Int?
    public let reason: String
  }

  enum Kind { case gate, config, layer }

  /// `checkGate`: whether `user` passes the gate.
  public func checkGate(_ name: String, user: StatsigUser) -> Result {
    guard user.isValid else { return Result(passed: false, ruleID: "", groupName: nil, bucket: nil, reason: "no user id nor custom id") }
    do {
      return try evaluate(name, .gate, user, depth: 0)
    } catch {
      return Result(passed: false, ruleID: "error", groupName: nil, bucket: nil, reason: "the SDK fails here: \(error.reason)")
    }
  }

  /// `getExperiment`: the deciding rule's group, when the user passed it.
  public func getExperiment(_ name: String, user: StatsigUser) -> Result {
    guard user.isValid else { return Result(passed: false, ruleID: "", groupName: nil, bucket: nil, reason: "no user id nor custom id") }
    do {
      return try evaluate(name, .config, user, depth: 0)
    } catch {
      return Result(passed: false, ruleID: "error", groupName: nil, bucket: nil, reason: "the SDK fails here: \(error.reason)")
    }
  }

  /// A gate checked by a condition: the SDK catches an error inside it (the
  /// gate then fails) but lets a cycle's RecursionError through.
  private func nestedGate(_ name: String, _ user: StatsigUser, depth: Int) throws(StatsigCondition.Failure) -> Bool {
    do {
      return try evaluate(name, .gate, user, depth: depth + 1).passed
    } catch where error.isRecursion {
      throw error
    } catch {
      return false
    }
  }

  /// The pass-percentage hash: SHA-256's first eight bytes, big-endian.
  public static func hash(_ text: String) -> UInt64 {
    SHA256.digest(of: Array(text.utf8))[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
  }

  private func spec(_ name: String, _ kind: Kind) -> StatsigSpec? {
    switch kind {
    case .gate: specs.gates[name]
    case .config: specs.configs[name]
    case .layer: specs.layers[name]
    }
  }

  private func evaluate(_ name: String, _ kind: Kind, _ user: StatsigUser, depth: Int) throws(StatsigCondition.Failure) -> Result {
    guard depth < 64 else {
      throw StatsigCondition.Failure(reason: "gates refer to each other in a cycle (RecursionError)", isRecursion: true)
    }
    guard let spec = spec(name, kind) else {
      return Result(passed: false, ruleID: "", groupName: nil, bucket: nil, reason: "unknown to the SDK")
    }
    guard spec.enabled else { return Result(passed: false, ruleID: "disabled", groupName: nil, bucket: nil, reason: "disabled") }
    for rule in spec.rules {
      // The SDK evaluates every condition of a rule, so a failing one later in the rule still raises.
      var holds = true
      for condition in rule.conditions where try !self.holds(condition, user, depth: depth) {
        holds = false
      }
      guard holds else { continue }
      if let delegate = rule.configDelegate, specs.configs[delegate] != nil {
        return try evaluate(delegate, .config, user, depth: depth + 1)
      }
      let (passed, bucket) = passes(rule, spec, user)
      return Result(
        passed: passed, ruleID: rule.id, groupName: rule.groupName, bucket: bucket,
        reason: "rule \(rule.id.isEmpty ? "(no id)" : rule.id), \(passed ? "passed" : "not passed") at \(rule.passPercentage)%")
    }
    return Result(passed: false, ruleID: "default", groupName: nil, bucket: nil, reason: "no rule matched")
  }

  private func passes(_ rule: StatsigRule, _ spec: StatsigSpec, _ user: StatsigUser) -> (Bool, Int?) {
    if rule.passPercentage == 100 { return (true, nil) }
    if rule.passPercentage == 0 { return (false, nil) }
    let unit = user.unitID(rule.idType) ?? ""
    let bucket = Int(Self.hash("\(spec.salt).\(rule.salt).\(unit)") % 10_000)
    return (Double(bucket) < rule.passPercentage * 100, bucket)
  }

  private func holds(_ condition: StatsigCondition, _ user: StatsigUser, depth: Int) throws(StatsigCondition.Failure) -> Bool {
    let value: JSONValue?
    switch condition.type {
    case "public":
      return true
    case "pass_gate", "fail_gate":
      guard case .string(let gate)? = condition.targetValue else {
        throw StatsigCondition.Failure(reason: "a gate condition names no gate")
      }
      let passed = try nestedGate(gate, user, depth: depth)
      return condition.type == "pass_gate" ? passed : !passed
    case "multi_pass_gate", "multi_fail_gate":
      guard case .array(let gates)? = condition.targetValue, !gates.isEmpty else { return false }
      for case .string(let gate) in gates {
        let passed = try nestedGate(gate, user, depth: depth)
        if condition.type == "multi_pass_gate" ? passed : !passed { return true }
      }
      return false
    case "ip_based":
      // A country from the IP address needs the SDK's own IP table; the bench reads a given country only.
      guard let found = user.value(condition.field) else { return false }
      value = found
    case "ua_based", "user_field":
      // Without a given field, the SDK parses the user agent; the bench does not.
      value = user.value(condition.field)
    case "current_time":
      value = .integer(Int64((now.timeIntervalSince1970 * 1000).rounded()))
    case "environment_field":
      guard let tier = specs.defaultEnvironment else {
        value = nil
        break
      }
      // The SDK finds "Tier" by its lowercase name, then looks it up as written: a KeyError.
      if condition.field != "tier", condition.field.lowercased() == "tier" {
        throw StatsigCondition.Failure(reason: "KeyError: '\(condition.field)'")
      }
      value = condition.field == "tier" ? .string(tier) : nil
    case "user_bucket":
      let salt = condition.salt.flatMap { $0 == .null ? nil : $0.pythonString } ?? ""
      value = .integer(Int64(Self.hash("\(salt).\(user.unitID(condition.idType) ?? "")") % 1000))
    case "unit_id":
      value = user.unitID(condition.idType).map(JSONValue.string)
    case "target_app":
      value = specs.appID.map(JSONValue.string)
    default:
      value = nil
    }
    return try condition.compare(value, userBucketed: condition.type == "user_bucket" && ["any", "none"].contains(condition.op ?? ""))
  }
}
