// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Evaluates toggles as Unleash's SDKs do through their shared engine
/// (Yggdrasil): a toggle is on when it is enabled, its parents are as its
/// dependencies require and any strategy matches; its variant comes from the
/// first matching strategy that has variants, else from the toggle's own,
/// picked by murmur3 of "GROUP:STICKINESS" over the variants' total weight.
public struct UnleashEvaluator: Sendable {
  public let features: UnleashFeatures
  private let compiled: [String: Compiled]

  /// A toggle as the engine holds it once compiled.
  struct Compiled: Sendable {
    let feature: UnleashFeature
    /// nil when a strategy does not compile: the engine then serves the toggle off.
    let rule: UnleashRule?
    let brokenReason: String?
    /// The strategies that carry variants, in order; nil when one of them does not compile.
    let variantRules: [(rule: UnleashRule, variants: [UnleashVariant], stickiness: String, groupID: String)]?
  }

  /// What the engine serves a context: `variation` is the variant's name when
  /// the toggle is on and a variant is chosen, "enabled" when it is on without
  /// one, and "disabled" when it is off.
  public struct Decision: Sendable, Hashable {
    public let variation: String
    public let reason: String
    /// The variant's normalized hash (1 ... total weight), when one was hashed.
    public let bucket: Int?
  }

  public init(features: UnleashFeatures) {
    self.features = features
    var compiled: [String: Compiled] = [:]
    for feature in features.features {
      compiled[feature.name] = Self.compile(feature, segments: features.segments)
    }
    self.compiled = compiled
  }

  /// The decision for the toggle named `name`; nil when the file has no such toggle.
  public func decide(_ name: String, context: UnleashContext) -> Decision? {
    guard let toggle = compiled[name] else { return nil }
    var evaluation = UnleashRule.Evaluation(context: context, toggleName: name)
    guard toggle.feature.enabled else { return Decision(variation: "disabled", reason: "the toggle is disabled", bucket: nil) }
    guard dependenciesHold(toggle, &evaluation) else {
      return Decision(variation: "disabled", reason: "a dependency is not met", bucket: nil)
    }
    guard let rule = toggle.rule else {
      return Decision(variation: "disabled", reason: "a strategy does not compile (\(toggle.brokenReason ?? "")): the engine serves it off", bucket: nil)
    }
    guard rule.matches(&evaluation) else {
      return Decision(variation: "disabled", reason: "no strategy matches" + Self.randomNote(evaluation), bucket: nil)
    }
    guard let (variant, bucket) = variant(of: toggle, &evaluation) else {
      return Decision(variation: "enabled", reason: "on, without variants" + Self.randomNote(evaluation), bucket: nil)
    }
    return Decision(variation: variant.name, reason: "on, variant by \(bucket == nil ? "override" : "hash")" + Self.randomNote(evaluation), bucket: bucket)
  }

  private static func randomNote(_ evaluation: UnleashRule.Evaluation) -> String {
    evaluation.usedRandom ? " (the SDK draws at random here; the bench hashes the context instead)" : ""
  }

  private func enabled(_ toggle: Compiled, _ evaluation: inout UnleashRule.Evaluation) -> Bool {
    guard toggle.feature.enabled, dependenciesHold(toggle, &evaluation), let rule = toggle.rule else { return false }
    return rule.matches(&evaluation)
  }

  /// Each parent exists, has no dependencies of its own, is on or off as
  /// required and, when variants are listed and the parent has one, serves
  /// one of them. The parent is asked with the child's name as the toggle's:
  /// a rollout of the parent without a group id hashes with the child's name.
  private func dependenciesHold(_ toggle: Compiled, _ evaluation: inout UnleashRule.Evaluation) -> Bool {
    toggle.feature.dependencies.allSatisfy { dependency in
      guard let parent = compiled[dependency.feature], parent.feature.dependencies.isEmpty else { return false }
      let parentEnabled = enabled(parent, &evaluation)
      if let expected = dependency.variants, let served = variant(of: parent, &evaluation)?.variant,
        !expected.isEmpty, !expected.contains(where: { ExactText($0) == ExactText(served.name) })
      {
        return false
      }
      return parentEnabled == dependency.enabled
    }
  }

  /// The first strategy with variants that matches gives them (or, when its
  /// list is empty, the toggle's); otherwise the toggle's own variants.
  private func variant(of toggle: Compiled, _ evaluation: inout UnleashRule.Evaluation) -> (variant: UnleashVariant, bucket: Int?)? {
    if let rules = toggle.variantRules {
      for entry in rules where entry.rule.matches(&evaluation) {
        if entry.variants.isEmpty { break }
        return Self.resolve(entry.variants, stickiness: entry.stickiness, group: entry.groupID, &evaluation, overrides: false)
      }
    }
    return Self.resolve(
      toggle.feature.variants, stickiness: toggle.feature.variants.first?.stickiness, group: toggle.feature.name, &evaluation, overrides: true)
  }

  private static let variantSeed: UInt32 = 86_028_157

  private static func resolve(
    _ variants: [UnleashVariant], stickiness: String?, group: String, _ evaluation: inout UnleashRule.Evaluation, overrides: Bool
  ) -> (variant: UnleashVariant, bucket: Int?)? {
    guard !variants.isEmpty else { return nil }
    if overrides {
      for variant in variants {
        for override in variant.overrides {
          let field = UnleashRule.Field(override.contextName)
          if let value = evaluation.peek(field), field != .random, override.values.contains(where: { ExactText($0) == ExactText(value) }) {
            return (variant, nil)
          }
        }
      }
    }
    let total = variants.reduce(UInt32(0)) { $0 &+ UInt32($1.weight) }
    guard total > 0 else { return nil }
    let seed: String?
    switch stickiness {
    case nil, "default": seed = evaluation.context.userId ?? evaluation.context.sessionId
    case "userId", "sessionId", "environment", "appName", "remoteAddress": seed = evaluation.peek(UnleashRule.Field(stickiness!))
    case let name?: seed = evaluation.context.properties[name]
    }
    let target: Int
    if let seed {
      target = UnleashRule.normalizedHash(group: group, identifier: seed, modulus: total, seed: variantSeed)
    } else {
      evaluation.usedRandom = true
      target = Int(MurmurHash3.x86_32("\(group):\(evaluation.context.userId ?? "")", seed: 1) % total) + 1
    }
    var sum = 0
    for variant in variants {
      sum += Int(variant.weight)
      if sum >= target { return (variant, target) }
    }
    return nil
  }

  // MARK: - Compiling

  static func compile(_ feature: UnleashFeature, segments: [Int64: [UnleashConstraint]]) -> Compiled {
    var rule: UnleashRule? = nil, brokenReason: String? = nil
    do {
      rule = feature.strategies.isEmpty ? .constant(true) : .any(try feature.strategies.map { strategy throws(UnleashConstraint.Broken) in
        try compile(strategy, feature: feature.name, segments: segments)
      })
    } catch {
      brokenReason = error.reason
    }
    var variantRules: [(rule: UnleashRule, variants: [UnleashVariant], stickiness: String, groupID: String)]? = []
    for strategy in feature.strategies {
      guard let variants = strategy.variants else { continue }
      guard let compiled = try? compile(strategy, feature: feature.name, segments: segments) else {
        variantRules = nil
        break
      }
      variantRules?.append((compiled, variants, strategy.parameters["stickiness"] ?? "default", strategy.parameters["groupId"] ?? feature.name))
    }
    return Compiled(feature: feature, rule: rule, brokenReason: brokenReason, variantRules: variantRules)
  }

  /// A percentage the engine accepts: Rust's `usize` (digits, an optional "+"); nil otherwise.
  private static func percentage(_ text: String?) -> Int? {
    guard let text else { return nil }
    var digits = Substring(text)
    if digits.first == "+" { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(digits) ?? Int.max
  }

  private static func trimmedList(_ text: String) -> [String] {
    text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
  }

  private static func compile(_ strategy: UnleashStrategy, feature: String, segments: [Int64: [UnleashConstraint]]) throws(UnleashConstraint.Broken) -> UnleashRule {
    let parameters = strategy.parameters
    func rolloutPercent(_ value: Int) throws(UnleashConstraint.Broken) -> Int {
      guard value <= 100 else { throw UnleashConstraint.Broken(reason: "strategy '\(strategy.name)' of '\(feature)' rolls out \(value)%") }
      return value
    }
    func group(_ text: String?) throws(UnleashConstraint.Broken) -> String? {
      if let text, text.contains("\"") { throw UnleashConstraint.Broken(reason: "the group id \(text) holds a double quote") }
      return text
    }
    var base: UnleashRule
    switch strategy.name {
    case "default":
      base = .constant(true)
    case "userWithId":
      if let ids = parameters["userIds"] {
        base = .list(.userId, Set(trimmedList(ids).map(ExactText.init)), isIn: true, empty: false)
      } else {
        base = .constant(false)
      }
    case "gradualRolloutUserId", "gradualRolloutSessionId":
      if let percent = percentage(parameters["percentage"]), let groupID = parameters["groupId"] {
        base = .rollout(
          percent: try rolloutPercent(percent), stickiness: [strategy.name == "gradualRolloutUserId" ? .userId : .sessionId],
          groupID: try group(groupID))
      } else {
        base = .constant(false)
      }
    case "gradualRolloutRandom":
      base = percentage(parameters["percentage"]).map { UnleashRule.random(below: $0) } ?? .constant(false)
    case "flexibleRollout":
      if let percent = percentage(parameters["rollout"]) {
        let stickiness: [UnleashRule.Field] =
          switch parameters["stickiness"] {
          case nil, "default": [.userId, .sessionId, .random]
          case "random": [.random]
          case let name?: [UnleashRule.Field(name)]
          }
        base = .rollout(percent: try rolloutPercent(percent), stickiness: stickiness, groupID: try group(parameters["groupId"]))
      } else {
        base = .constant(false)
      }
    case "remoteAddress":
      base = parameters["IPs"].map { UnleashRule.address(.remoteAddress, trimmedList($0).compactMap(UnleashNetwork.init)) } ?? .constant(false)
    case "applicationHostname":
      base = .hostname(Set(trimmedList(parameters["hostNames"] ?? "").map { $0.lowercased() }))
    default:
      // A custom strategy: the bench registers none, so it never matches.
      base = .constant(false)
    }
    var constraints = strategy.constraints
    for id in strategy.segments {
      guard let segment = segments[id] else { return .constant(false) }
      constraints += segment
    }
    guard !constraints.isEmpty else { return base }
    return .all([base] + (try constraints.map { constraint throws(UnleashConstraint.Broken) in try constraint.compiled() }))
  }
}
