// SPDX-License-Identifier: Apache-2.0

import Digests
import JSONDocument

/// Evaluates flags as LaunchDarkly's server SDKs do (launchdarkly-server-sdk's
/// `Evaluator`), for `variationDetail`: off, prerequisites, targets, rules in
/// order, then the fallthrough; a rollout buckets by SHA-1.
public struct LaunchDarklyEvaluator: Sendable {
  public let data: LaunchDarklyFlagData

  public init(data: LaunchDarklyFlagData) {
    self.data = data
  }

  /// What `variationDetail` returns: the served variation's index (nil when
  /// the SDK serves the caller's default), the reason, and the bucket when a
  /// rollout decided.
  public struct Detail: Sendable, Hashable {
    public let variationIndex: Int?
    public let reason: String
    public let bucket: Double?
  }

  /// A problem that makes the SDK serve the default with an error reason.
  struct Malformed: Error {
    let message: String
  }

  /// The deepest chain of prerequisites, or of segments that refer to segments, evaluated: far beyond
  /// any real flag file, and within the stack of any thread. A deeper chain is served the caller's
  /// default as malformed (the SDKs themselves, recursive, stop at their language's recursion limit).
  public static let deepestChain = 200

  /// What one `variationDetail` call has decided so far. A flag's detail as a prerequisite and a
  /// segment's match depend only on the file and the context, so each is evaluated once per call:
  /// a graph whose links fan out (two prerequisites a level, 40 levels) costs its size, not its
  /// paths. The chains are the flags and segments being evaluated, for cycles and the depth bound.
  struct Evaluation {
    var prerequisites: [String: Detail] = [:]
    var segments: [String: Bool] = [:]
    var flagChain: Set<String> = []
    var segmentChain: Set<String> = []
  }

  /// The detail for the flag stored under `key`.
  public func variationDetail(_ key: String, context: LaunchDarklyContext) -> Detail {
    guard context.isValid else { return Detail(variationIndex: nil, reason: "ERROR USER_NOT_SPECIFIED", bucket: nil) }
    guard let flag = data.flags[key], !flag.deleted else { return Detail(variationIndex: nil, reason: "ERROR FLAG_NOT_FOUND", bucket: nil) }
    do {
      var evaluation = Evaluation(flagChain: [flag.key])
      return try evaluate(flag, context, &evaluation)
    } catch {
      return Detail(variationIndex: nil, reason: "ERROR MALFORMED_FLAG (\(error.message))", bucket: nil)
    }
  }

  private func evaluate(_ flag: LaunchDarklyFlag, _ context: LaunchDarklyContext, _ evaluation: inout Evaluation) throws(Malformed) -> Detail {
    guard flag.on else { return offValue(flag, reason: "OFF") }
    for prerequisite in flag.prerequisites {
      guard !evaluation.flagChain.contains(prerequisite.key) else {
        throw Malformed(message: "prerequisite relationship to \"\(prerequisite.key)\" caused a circular reference")
      }
      var failed = true
      if let required = data.flags[prerequisite.key], !required.deleted {
        let result: Detail
        if let known = evaluation.prerequisites[prerequisite.key] {
          result = known
        } else {
          guard evaluation.flagChain.count < Self.deepestChain else {
            throw Malformed(message: "prerequisites nest deeper than \(Self.deepestChain) flags")
          }
          evaluation.flagChain.insert(prerequisite.key)
          result = try evaluate(required, context, &evaluation)
          evaluation.flagChain.remove(prerequisite.key)
          evaluation.prerequisites[prerequisite.key] = result
        }
        failed = !required.on || result.variationIndex.map(Int64.init) != prerequisite.variation
      }
      if failed { return offValue(flag, reason: "PREREQUISITE_FAILED \(prerequisite.key)") }
    }
    if let index = targetMatch(flag, context) { return variation(flag, index, reason: "TARGET_MATCH") }
    for (index, rule) in flag.rules.enumerated() where try allMatch(rule.clauses, context, &evaluation) {
      return try served(flag, rule.variationOrRollout, context, reason: "RULE_MATCH \(index)\(rule.id.map { " (\($0))" } ?? "")")
    }
    return try served(flag, flag.`fallthrough`, context, reason: "FALLTHROUGH")
  }

  private func offValue(_ flag: LaunchDarklyFlag, reason: String) -> Detail {
    guard let index = flag.offVariation else { return Detail(variationIndex: nil, reason: reason, bucket: nil) }
    return variation(flag, index, reason: reason)
  }

  private func variation(_ flag: LaunchDarklyFlag, _ index: Int64, reason: String, bucket: Double? = nil) -> Detail {
    guard index >= 0, index < flag.variations.count else {
      return Detail(variationIndex: nil, reason: "ERROR MALFORMED_FLAG (no variation \(index))", bucket: nil)
    }
    return Detail(variationIndex: Int(index), reason: reason, bucket: bucket)
  }

  /// Individual targets: `contextTargets` when the flag has any (a user-kind
  /// entry there defers to `targets` of the same variation), else `targets`.
  private func targetMatch(_ flag: LaunchDarklyFlag, _ context: LaunchDarklyContext) -> Int64? {
    guard !flag.contextTargets.isEmpty else {
      return flag.targets.first { $0.values.contains(exactly: context.key) }?.variation
    }
    for target in flag.contextTargets where (target.contextKind ?? "user") == context.kind {
      if let users = flag.targets.first(where: { $0.variation == target.variation }), users.values.contains(exactly: context.key) {
        return target.variation
      }
    }
    return nil
  }

  private func served(
    _ flag: LaunchDarklyFlag, _ outcome: LaunchDarklyVariationOrRollout, _ context: LaunchDarklyContext, reason: String
  ) throws(Malformed) -> Detail {
    if let index = outcome.variation { return variation(flag, index, reason: reason) }
    guard let rollout = outcome.rollout, let last = rollout.variations.last else {
      return Detail(variationIndex: nil, reason: "ERROR MALFORMED_FLAG (neither a variation nor a rollout)", bucket: nil)
    }
    let bucket = try Self.bucket(
      context, contextKind: rollout.contextKind, key: flag.key, salt: flag.salt, seed: rollout.seed,
      bucketBy: rollout.isExperiment ? nil : rollout.bucketBy)
    var sum = 0.0
    for weighted in rollout.variations {
      sum += Double(weighted.weight) / 100_000
      if bucket < sum { return variation(flag, weighted.variation, reason: reason, bucket: bucket) }
    }
    // At or past the last boundary (weights that add up to less than 100,000): the last variation.
    return variation(flag, last.variation, reason: reason, bucket: bucket)
  }

  /// The context's bucket in [0, 1): SHA-1 of "KEY.SALT.VALUE" (or "SEED.VALUE"),
  /// its first 15 hexadecimal digits over 0xFFFFFFFFFFFFFFF. -1 when the context
  /// is not of the kind; 0 when the attribute is missing or neither a string
  /// nor an integer (a boolean, a number with a fraction, an array).
  static func bucket(
    _ context: LaunchDarklyContext, contextKind: String?, key: String, salt: String, seed: Int64?,
    bucketBy: LaunchDarklyAttributeReference?
  ) throws(Malformed) -> Double {
    guard (contextKind ?? "user") == context.kind else { return -1 }
    let value: JSONValue?
    if let bucketBy {
      if let error = bucketBy.error { throw Malformed(message: "invalid attribute reference: \(error)") }
      value = context.value(bucketBy)
    } else {
      value = .string(context.key)
    }
    let text: String
    switch value {
    case .string(let string): text = string
    case .integer(let number): text = String(number)
    default: return 0
    }
    let prefix = seed.map { String($0) } ?? "\(key).\(salt)"
    let words = SHA1.words(of: "\(prefix).\(text)".utf8)
    // 15 hexadecimal digits: the first 60 bits.
    let high = (UInt64(words[0]) << 32 | UInt64(words[1])) >> 4
    return Double(high) / Double(0xFFF_FFFF_FFFF_FFFF as UInt64)
  }

  /// Whether every clause matches (a rule without clauses matches everyone).
  private func allMatch(_ clauses: [LaunchDarklyClause], _ context: LaunchDarklyContext, _ evaluation: inout Evaluation) throws(Malformed) -> Bool {
    for clause in clauses where try !matches(clause, context, &evaluation) {
      return false
    }
    return true
  }

  private func matches(_ clause: LaunchDarklyClause, _ context: LaunchDarklyContext, _ evaluation: inout Evaluation) throws(Malformed) -> Bool {
    if clause.op == "segmentMatch" {
      for case .string(let key) in clause.values {
        if let segment = data.segments[key], !segment.deleted, try segmentMatches(segment, context, &evaluation) {
          return !clause.negate
        }
      }
      return clause.negate
    }
    if clause.attribute.components == ["kind"] {
      return clause.matchesSingle(.string(context.kind)) != clause.negate
    }
    guard (clause.contextKind ?? "user") == context.kind else { return false }
    if let error = clause.attribute.error { throw Malformed(message: "invalid attribute reference: \(error)") }
    guard let value = context.value(clause.attribute) else { return false }
    if case .array(let elements) = value {
      return elements.contains(where: clause.matchesSingle) != clause.negate
    }
    return clause.matchesSingle(value) != clause.negate
  }

  /// Whether the context is in the segment, decided once per evaluation.
  private func segmentMatches(_ segment: LaunchDarklySegment, _ context: LaunchDarklyContext, _ evaluation: inout Evaluation) throws(Malformed) -> Bool {
    guard !evaluation.segmentChain.contains(segment.key) else {
      throw Malformed(message: "segment rule referencing segment \"\(segment.key)\" caused a circular reference")
    }
    if let known = evaluation.segments[segment.key] { return known }
    let matched = try decideSegment(segment, context, &evaluation)
    evaluation.segments[segment.key] = matched
    return matched
  }

  private func decideSegment(_ segment: LaunchDarklySegment, _ context: LaunchDarklyContext, _ evaluation: inout Evaluation) throws(Malformed) -> Bool {
    if segment.unbounded {
      // A big segment: without its store the SDK knows no member, and reads the rules only when a generation is set.
      guard segment.generation != nil, (segment.unboundedContextKind ?? "user") == context.kind else { return false }
    } else {
      if segment.included.contains(exactly: context.key) { return true }
      if segment.includedContexts.contains(where: { ($0.contextKind ?? "user") == context.kind && $0.values.contains(exactly: context.key) }) {
        return true
      }
      if segment.excluded.contains(exactly: context.key) { return false }
      if segment.excludedContexts.contains(where: { ($0.contextKind ?? "user") == context.kind && $0.values.contains(exactly: context.key) }) {
        return false
      }
    }
    guard !segment.rules.isEmpty else { return false }
    guard evaluation.segmentChain.count < Self.deepestChain else {
      throw Malformed(message: "segments refer to segments deeper than \(Self.deepestChain)")
    }
    evaluation.segmentChain.insert(segment.key)
    defer { evaluation.segmentChain.remove(segment.key) }
    for rule in segment.rules {
      guard try allMatch(rule.clauses, context, &evaluation) else { continue }
      guard let weight = rule.weight else { return true }
      let bucket = try Self.bucket(
        context, contextKind: rule.rolloutContextKind, key: segment.key, salt: segment.salt, seed: nil, bucketBy: rule.bucketBy)
      if bucket < Double(weight) / 100_000 { return true }
    }
    return false
  }
}
