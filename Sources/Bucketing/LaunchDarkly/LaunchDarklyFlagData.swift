// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// The flag data LaunchDarkly's SDKs evaluate, as the file data source reads
/// it: `{"flags": {KEY: flag}, "segments": {KEY: segment}}` with the flag and
/// segment objects of the streaming and polling APIs.
///
/// Every type the Python SDK checks when it stores the data is checked here:
/// where it would refuse the whole data set (and serve every caller its
/// default), the bench refuses the file and names the field.
public struct LaunchDarklyFlagData: Sendable {
  /// The flags by the key the SDK stores them under: the flag's own `key`.
  public let flags: [String: LaunchDarklyFlag]
  /// The keys of `flags`, for rows, in the order of the file's members: a
  /// member whose flag says another key is the flag the SDK stores under
  /// that key, which is what an app asking by the key gets (the member's own
  /// name finds nothing, which `problems` says).
  public let flagNames: [String]
  public let segments: [String: LaunchDarklySegment]
  /// What the SDK tolerates but the file's author did not mean.
  public let problems: [String]

  public init(json data: Data) throws(BucketingError) {
    let reader = VendorJSON(format: "LaunchDarkly flag data")
    let root = try reader.object(try reader.parse(data), "$")
    // The SDK's file data source takes every member as optional, so any object would read as no flags at all:
    // a file without either is another vendor's (Statsig's has "feature_gates", Optimizely's "experiments").
    guard root["flags"] != nil || root["segments"] != nil else {
      throw reader.error("$", "has neither 'flags' nor 'segments': it is not LaunchDarkly flag data (top-level members: "
        + (root.isEmpty ? "none" : root.keys.sorted().prefix(8).map { "'\($0)'" }.joined(separator: ", ")) + ")")
    }
    let flagMembers = try reader.optional(root, "flags", "$", reader.object) ?? [:]
    let segmentMembers = try reader.optional(root, "segments", "$", reader.object) ?? [:]
    var flags: [String: LaunchDarklyFlag] = [:], flagNames: [String] = []
    var problems: [String] = []
    for name in flagMembers.keys.sorted() {
      let flag = try LaunchDarklyFlag(flagMembers[name]!, path: "flags.\(name)", reader: reader)
      guard flags[flag.key] == nil else {
        throw reader.error("flags.\(name).key", "'\(flag.key)' is the key of another flag too: the SDK refuses the file")
      }
      if flag.key != name {
        problems.append(
          "flags.\(name) has the key '\(flag.key)': the SDK stores and evaluates it under '\(flag.key)', so '\(name)' is never "
            + "found; its rows are '\(flag.key)'s")
      }
      flags[flag.key] = flag
      flagNames.append(flag.key)
    }
    var segments: [String: LaunchDarklySegment] = [:]
    for name in segmentMembers.keys.sorted() {
      let segment = try LaunchDarklySegment(segmentMembers[name]!, path: "segments.\(name)", reader: reader)
      guard segments[segment.key] == nil else {
        throw reader.error("segments.\(name).key", "'\(segment.key)' is the key of another segment too: the SDK refuses the file")
      }
      segments[segment.key] = segment
    }
    for name in flags.keys.sorted() {
      let flag = flags[name]!
      for prerequisite in flag.prerequisites where flags[prerequisite.key] == nil {
        problems.append("flag '\(name)' has the prerequisite '\(prerequisite.key)', which is not in the file: it always fails")
      }
      for key in flag.rules.flatMap(\.clauses).filter({ $0.op == "segmentMatch" }).flatMap(\.values).compactMap(\.string)
      where segments[key] == nil {
        problems.append("flag '\(name)' matches the segment '\(key)', which is not in the file: it never matches")
      }
      // Weights are in thousandths of a percent: 70/30 written as percentages is a rollout of 0.1%.
      let outcomes = [("its fallthrough", flag.fallthrough)] + flag.rules.enumerated().map { ("its rule \($0)", $1.variationOrRollout) }
      // A rollout hashes the flag's key and salt (unless it has a seed): a salt the file lost moves every user.
      if flag.isSaltMissing, outcomes.contains(where: { $0.1.rollout.map { $0.seed == nil } ?? false }) {
        problems.append(
          "flag '\(name)' has no salt: the SDK buckets its rollout with an empty one, where LaunchDarkly's own data gives "
            + "every flag its salt; against a file that has it, every user's bucket moves (check the export kept 'salt')")
      }
      for (place, outcome) in outcomes {
        guard let weights = outcome.rollout?.variations.map(\.weight), !weights.isEmpty else { continue }
        let total = weights.reduce(0, &+)
        guard total != 100_000 else { continue }
        let share = String(format: "%g", Double(total) / 1_000)
        problems.append(
          "flag '\(name)', \(place): the rollout's weights add up to \(total), where LaunchDarkly's whole is 100000 (70% is 70000): "
            + (total < 100_000
              ? "the SDK gives every user past \(share)% the last variation"
              : "the weights past the first 100000 are never served"))
      }
    }
    self.flags = flags
    self.flagNames = flagNames
    self.segments = segments
    self.problems = problems
  }
}

/// A flag as the SDK stores it. A deleted flag (a tombstone) keeps only its key.
public struct LaunchDarklyFlag: Sendable {
  public let key: String
  public let deleted: Bool
  public let on: Bool
  public let variations: [JSONValue]
  public let offVariation: Int64?
  public let `fallthrough`: LaunchDarklyVariationOrRollout
  public let prerequisites: [Prerequisite]
  public let targets: [Target]
  public let contextTargets: [Target]
  public let rules: [Rule]
  public let salt: String
  /// Whether the file gives the flag no `salt`: the SDK then hashes with an
  /// empty one, where LaunchDarkly's own data gives every flag its salt.
  public let isSaltMissing: Bool

  public struct Prerequisite: Sendable {
    public let key: String
    public let variation: Int64
  }

  /// Context keys served a variation before any rule.
  public struct Target: Sendable {
    public let contextKind: String?
    public let variation: Int64
    public let values: Set<ExactText>
  }

  public struct Rule: Sendable {
    public let id: String?
    public let clauses: [LaunchDarklyClause]
    public let variationOrRollout: LaunchDarklyVariationOrRollout
  }

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    // The file data source gives a flag without a version the version 1.
    if members["version"] != nil { _ = try reader.required(members, "version", path, reader.integer) }
    deleted = try reader.optional(members, "deleted", path, reader.bool) ?? false
    if deleted {
      key = try reader.optional(members, "key", path, reader.string) ?? ""
      on = false
      variations = []
      offVariation = nil
      self.fallthrough = LaunchDarklyVariationOrRollout()
      salt = ""
      isSaltMissing = false
      prerequisites = []
      self.targets = []
      contextTargets = []
      rules = []
      return
    }
    key = try reader.required(members, "key", path, reader.string)
    variations = try reader.optional(members, "variations", path, reader.array) ?? []
    on = try reader.optional(members, "on", path, reader.bool) ?? false
    offVariation = try reader.optional(members, "offVariation", path, reader.integer)
    self.fallthrough = try reader.optional(members, "fallthrough", path) { value, path throws(BucketingError) in
      try LaunchDarklyVariationOrRollout(try reader.object(value, path), path: path, reader: reader)
    } ?? LaunchDarklyVariationOrRollout()
    prerequisites = try reader.optional(members, "prerequisites", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in
        let members = try reader.object(value, path)
        return Prerequisite(
          key: try reader.required(members, "key", path, reader.string),
          variation: try reader.required(members, "variation", path, reader.integer))
      }
    } ?? []
    func targets(_ name: String) throws(BucketingError) -> [Target] {
      try reader.optional(members, name, path) { value, path throws(BucketingError) in
        try reader.list(value, path) { value, path throws(BucketingError) in
          let members = try reader.object(value, path)
          return Target(
            contextKind: try reader.optional(members, "contextKind", path, reader.string),
            variation: try reader.required(members, "variation", path, reader.integer),
            values: try reader.required(members, "values", path, reader.exactSet))
        }
      } ?? []
    }
    self.targets = try targets("targets")
    contextTargets = try targets("contextTargets")
    rules = try reader.optional(members, "rules", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in
        let members = try reader.object(value, path)
        return Rule(
          id: try reader.optional(members, "id", path, reader.string),
          clauses: try reader.required(members, "clauses", path) { value, path throws(BucketingError) in
            try reader.list(value, path) { value, path throws(BucketingError) in try LaunchDarklyClause(value, path: path, reader: reader) }
          },
          variationOrRollout: try LaunchDarklyVariationOrRollout(members, path: path, reader: reader))
      }
    } ?? []
    salt = try reader.optional(members, "salt", path, reader.string) ?? ""
    isSaltMissing = members["salt"] == nil
  }
}

/// A fixed variation or a percentage rollout: a rule's or the fallthrough's outcome.
public struct LaunchDarklyVariationOrRollout: Sendable {
  public var variation: Int64?
  public var rollout: Rollout?

  public struct Rollout: Sendable {
    public let contextKind: String?
    public let bucketBy: LaunchDarklyAttributeReference?
    /// `kind: "experiment"`: bucketed by the context key whatever `bucketBy` says.
    public let isExperiment: Bool
    public let seed: Int64?
    public let variations: [WeightedVariation]
  }

  /// A variation's share, in 100,000ths.
  public struct WeightedVariation: Sendable {
    public let variation: Int64
    public let weight: Int64
    public let untracked: Bool
  }

  init() {}

  init(_ members: [String: JSONValue], path: String, reader: VendorJSON) throws(BucketingError) {
    variation = try reader.optional(members, "variation", path, reader.integer)
    rollout = try reader.optional(members, "rollout", path) { value, path throws(BucketingError) in
      let members = try reader.object(value, path)
      let contextKind = try reader.optional(members, "contextKind", path, reader.string)
      let bucketBy = try reader.optional(members, "bucketBy", path, reader.string)
      return Rollout(
        contextKind: contextKind,
        bucketBy: bucketBy.flatMap { $0.isEmpty ? nil : LaunchDarklyAttributeReference($0, contextKind: contextKind) },
        isExperiment: try reader.optional(members, "kind", path, reader.string) == "experiment",
        seed: try reader.optional(members, "seed", path, reader.integer),
        variations: try reader.required(members, "variations", path) { value, path throws(BucketingError) in
          try reader.list(value, path) { value, path throws(BucketingError) in
            let members = try reader.object(value, path)
            return WeightedVariation(
              variation: try reader.required(members, "variation", path, reader.integer),
              weight: try reader.required(members, "weight", path, reader.integer),
              untracked: try reader.optional(members, "untracked", path, reader.bool) ?? false)
          }
        })
    }
  }
}

/// A segment: listed keys, then rules that may bucket a share of the contexts they match.
public struct LaunchDarklySegment: Sendable {
  public let key: String
  public let deleted: Bool
  public let included: Set<ExactText>
  public let excluded: Set<ExactText>
  public let includedContexts: [Target]
  public let excludedContexts: [Target]
  public let rules: [Rule]
  public let salt: String
  /// A big segment, whose members live in a store the bench does not have.
  public let unbounded: Bool
  public let unboundedContextKind: String?
  /// A big segment's generation; without one the SDK matches nobody.
  public let generation: Int64?

  public struct Target: Sendable {
    public let contextKind: String?
    public let values: Set<ExactText>
  }

  public struct Rule: Sendable {
    public let clauses: [LaunchDarklyClause]
    public let rolloutContextKind: String?
    public let bucketBy: LaunchDarklyAttributeReference?
    /// The share of matching contexts in the segment, in 100,000ths; nil for all of them.
    public let weight: Int64?
  }

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    if members["version"] != nil { _ = try reader.required(members, "version", path, reader.integer) }
    deleted = try reader.optional(members, "deleted", path, reader.bool) ?? false
    guard !deleted else {
      key = try reader.optional(members, "key", path, reader.string) ?? ""
      (included, excluded, includedContexts, excludedContexts, rules) = ([], [], [], [], [])
      (salt, unbounded, unboundedContextKind, generation) = ("", false, nil, nil)
      return
    }
    key = try reader.required(members, "key", path, reader.string)
    func keys(_ name: String) throws(BucketingError) -> Set<ExactText> {
      try reader.optional(members, name, path, reader.exactSet) ?? []
    }
    func targets(_ name: String) throws(BucketingError) -> [Target] {
      try reader.optional(members, name, path) { value, path throws(BucketingError) in
        try reader.list(value, path) { value, path throws(BucketingError) in
          let members = try reader.object(value, path)
          return Target(
            contextKind: try reader.optional(members, "contextKind", path, reader.string),
            values: try reader.required(members, "values", path, reader.exactSet))
        }
      } ?? []
    }
    included = try keys("included")
    excluded = try keys("excluded")
    includedContexts = try targets("includedContexts")
    excludedContexts = try targets("excludedContexts")
    rules = try reader.optional(members, "rules", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in
        let members = try reader.object(value, path)
        let kind = try reader.optional(members, "rolloutContextKind", path, reader.string)
        let bucketBy = try reader.optional(members, "bucketBy", path, reader.string)
        return Rule(
          clauses: try reader.required(members, "clauses", path) { value, path throws(BucketingError) in
            try reader.list(value, path) { value, path throws(BucketingError) in try LaunchDarklyClause(value, path: path, reader: reader) }
          },
          rolloutContextKind: kind,
          bucketBy: bucketBy.flatMap { $0.isEmpty ? nil : LaunchDarklyAttributeReference($0, contextKind: kind) },
          weight: try reader.optional(members, "weight", path, reader.integer))
      }
    } ?? []
    salt = try reader.optional(members, "salt", path, reader.string) ?? ""
    unbounded = try reader.optional(members, "unbounded", path, reader.bool) ?? false
    unboundedContextKind = try reader.optional(members, "unboundedContextKind", path, reader.string)
    generation = try reader.optional(members, "generation", path, reader.integer)
  }
}
