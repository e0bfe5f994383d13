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
    let why: Why

    /// Why, kept as data: the simulator asks millions of times and never reads it.
    enum Why: Sendable, Hashable {
      case invalidUser, unknown, disabled, noRule
      case failure(String)
      case rule(percentage: Double)
    }

    init(passed: Bool, ruleID: String, groupName: String?, bucket: Int?, why: Why) {
      (self.passed, self.ruleID, self.groupName, self.bucket, self.why) = (passed, ruleID, groupName, bucket, why)
    }

    /// The reason, readable.
    public var reason: String {
      switch why {
      case .invalidUser: "no user id nor custom id"
      case .unknown: "unknown to the SDK"
      case .disabled: "disabled"
      case .noRule: "no rule matched"
      case .failure(let reason): "the SDK fails here: \(reason)"
      case .rule(let percentage):
        "rule \(ruleID.isEmpty ? "(no id)" : ruleID), \(passed ? "passed" : "not passed") at \(percentage)%"
      }
    }
  }

  enum Kind { case gate, config, layer }

  /// `checkGate`: whether `user` passes the gate.
  public func checkGate(_ name: String, user: StatsigUser) -> Result {
    guard user.isValid else { return Result(passed: false, ruleID: "", groupName: nil, bucket: nil, why: .invalidUser) }
    var memo = EvaluationMemo()
    do {
      return try evaluate(name, .gate, user, depth: 0, &memo)
    } catch {
      return Result(passed: false, ruleID: "error", groupName: nil, bucket: nil, why: .failure(error.reason))
    }
  }

  /// `getExperiment`: the deciding rule's group, when the user passed it.
  public func getExperiment(_ name: String, user: StatsigUser) -> Result {
    guard user.isValid else { return Result(passed: false, ruleID: "", groupName: nil, bucket: nil, why: .invalidUser) }
    var memo = EvaluationMemo()
    do {
      return try evaluate(name, .config, user, depth: 0, &memo)
    } catch {
      return Result(passed: false, ruleID: "error", groupName: nil, bucket: nil, why: .failure(error.reason))
    }
  }

  /// A gate checked by a condition: the SDK catches an error inside it (the
  /// gate then fails) but lets a cycle's RecursionError through.
  private func nestedGate(_ name: String, _ user: StatsigUser, depth: Int, _ memo: inout EvaluationMemo) throws(StatsigCondition.Failure) -> Bool {
    if let known = memo.gates[name] { return known }
    let passed: Bool
    do {
      passed = try evaluate(name, .gate, user, depth: depth + 1, &memo).passed
    } catch where error.isRecursion {
      throw error
    } catch {
      passed = false
    }
    memo.gates[name] = passed
    return passed
  }

  /// The pass-percentage hash: SHA-256's first eight bytes, big-endian.
  public static func hash(_ text: String) -> UInt64 {
    let words = SHA256.words(of: text.utf8)
    return UInt64(words[0]) << 32 | UInt64(words[1])
  }

  private func spec(_ name: String, _ kind: Kind) -> StatsigSpec? {
    switch kind {
    case .gate: specs.gates[name]
    case .config: specs.configs[name]
    case .layer: specs.layers[name]
    }
  }

  /// What one evaluation has computed, each a pure function of the specs and
  /// the user: the last user bucket hashed (a group's two bounds, `gte` and
  /// `lt`, hash the same salt and id), and each gate a condition checked, so
  /// that gates whose conditions fan out (two gates a level, 40 levels) are
  /// evaluated once each, not once per path.
  struct EvaluationMemo {
    var salt: String?
    var unit = ""
    var bucket: Int64 = -1
    var gates: [String: Bool] = [:]
  }

  private func evaluate(
    _ name: String, _ kind: Kind, _ user: StatsigUser, depth: Int, _ memo: inout EvaluationMemo
  ) throws(StatsigCondition.Failure) -> Result {
    guard depth < 64 else {
      throw StatsigCondition.Failure(reason: "gates refer to each other in a cycle (RecursionError)", isRecursion: true)
    }
    guard let spec = spec(name, kind) else {
      return Result(passed: false, ruleID: "", groupName: nil, bucket: nil, why: .unknown)
    }
    guard spec.enabled else { return Result(passed: false, ruleID: "disabled", groupName: nil, bucket: nil, why: .disabled) }
    for rule in spec.rules {
      // The SDK evaluates every condition of a rule, so a failing one later in the rule still raises.
      var holds = true
      for condition in rule.conditions where try !self.holds(condition, user, depth: depth, &memo) {
        holds = false
      }
      guard holds else { continue }
      if let delegate = rule.configDelegate, specs.configs[delegate] != nil {
        return try evaluate(delegate, .config, user, depth: depth + 1, &memo)
      }
      let (passed, bucket) = passes(rule, spec, user)
      return Result(passed: passed, ruleID: rule.id, groupName: rule.groupName, bucket: bucket, why: .rule(percentage: rule.passPercentage))
    }
    return Result(passed: false, ruleID: "default", groupName: nil, bucket: nil, why: .noRule)
  }

  private func passes(_ rule: StatsigRule, _ spec: StatsigSpec, _ user: StatsigUser) -> (Bool, Int?) {
    if rule.passPercentage == 100 { return (true, nil) }
    if rule.passPercentage == 0 { return (false, nil) }
    let unit = user.unitID(rule.unit) ?? ""
    let bucket = Int(Self.hash("\(spec.salt).\(rule.salt).\(unit)") % 10_000)
    return (Double(bucket) < rule.passPercentage * 100, bucket)
  }

  private func holds(
    _ condition: StatsigCondition, _ user: StatsigUser, depth: Int, _ memo: inout EvaluationMemo
  ) throws(StatsigCondition.Failure) -> Bool {
    let value: JSONValue?
    switch condition.source {
    case .public:
      return true
    case .passGate, .failGate:
      guard case .string(let gate)? = condition.targetValue else {
        throw StatsigCondition.Failure(reason: "a gate condition names no gate")
      }
      let passed = try nestedGate(gate, user, depth: depth, &memo)
      return condition.source == .passGate ? passed : !passed
    case .multiPassGate, .multiFailGate:
      guard case .array(let gates)? = condition.targetValue, !gates.isEmpty else { return false }
      for case .string(let gate) in gates {
        let passed = try nestedGate(gate, user, depth: depth, &memo)
        if condition.source == .multiPassGate ? passed : !passed { return true }
      }
      return false
    case .ipBased:
      // A country from the IP address needs the SDK's own IP table; the bench reads a given country only.
      guard let found = user.value(condition.field) else { return false }
      value = found
    case .uaBased, .userField:
      // Without a given field, the SDK parses the user agent; the bench does not.
      value = user.value(condition.field)
    case .currentTime:
      value = .integer(Int64((now.timeIntervalSince1970 * 1000).rounded()))
    case .environmentField:
      guard let tier = specs.defaultEnvironment else {
        value = nil
        break
      }
      // The SDK finds "Tier" by its lowercase name, then looks it up as written: a KeyError.
      if condition.field != "tier", condition.field.lowercased() == "tier" {
        throw StatsigCondition.Failure(reason: "KeyError: '\(condition.field)'")
      }
      value = condition.field == "tier" ? .string(tier) : nil
    case .userBucket:
      let salt = condition.salt.flatMap { $0 == .null ? nil : $0.pythonString } ?? ""
      let unit = user.unitID(condition.unit) ?? ""
      if memo.salt.map({ !$0.hasSameBytes(as: salt) }) ?? true || !memo.unit.hasSameBytes(as: unit) {
        memo = EvaluationMemo(salt: salt, unit: unit, bucket: Int64(Self.hash("\(salt).\(unit)") % 1000))
      }
      value = .integer(memo.bucket)
    case .unitID:
      value = user.unitID(condition.unit).map(JSONValue.string)
    case .targetApp:
      value = specs.appID.map(JSONValue.string)
    case .unknown:
      value = nil
    }
    return try condition.compare(value, userBucketed: condition.looksUpUserBucket)
  }
}
