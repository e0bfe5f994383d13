// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// The client features API response Unleash's SDKs evaluate: `{"version": 2,
/// "features": [...], "segments": [...]}`, read with the types the SDKs'
/// engine (Yggdrasil) requires; a field of the wrong type names its path.
public struct UnleashFeatures: Sendable {
  public let features: [UnleashFeature]
  public let segments: [Int64: [UnleashConstraint]]
  /// What the engine tolerates but the file's author did not mean.
  public let problems: [String]

  public init(json data: Data) throws(BucketingError) {
    let reader = VendorJSON(format: "Unleash client features response")
    let root = try reader.object(try reader.parse(data), "$")
    features = try reader.required(root, "features", "$") { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try UnleashFeature(value, path: path, reader: reader) }
    }
    var segments: [Int64: [UnleashConstraint]] = [:]
    let segmentValues: [JSONValue] = try reader.optional(root, "segments", "$", reader.array) ?? []
    for (index, value) in segmentValues.enumerated() {
      let path = "segments[\(index)]"
      let members = try reader.object(value, path)
      let id = try reader.required(members, "id", path, reader.integer)
      segments[id] = try reader.required(members, "constraints", path) { value, path throws(BucketingError) in
        try reader.list(value, path) { value, path throws(BucketingError) in try UnleashConstraint(value, path: path, reader: reader) }
      }
    }
    self.segments = segments
    var problems: [String] = []
    var seen: Set<String> = []
    let names = Set(features.map(\.name))
    for feature in features {
      if !seen.insert(feature.name).inserted {
        problems.append("the feature '\(feature.name)' is listed twice: the engine keeps the last")
      }
      for strategy in feature.strategies {
        for id in strategy.segments where segments[id] == nil {
          problems.append("feature '\(feature.name)' uses the segment \(id), which is not in the file: its strategy is never enabled")
        }
      }
      for dependency in feature.dependencies where !names.contains(dependency.feature) {
        problems.append("feature '\(feature.name)' depends on '\(dependency.feature)', which is not in the file: it is never enabled")
      }
      if let reason = UnleashEvaluator.compile(feature, segments: segments).brokenReason {
        problems.append("feature '\(feature.name)': \(reason), so the engine cannot compile its strategies and serves it off")
      }
    }
    self.problems = problems
  }
}

/// One feature toggle.
public struct UnleashFeature: Sendable {
  public let name: String
  public let enabled: Bool
  public let strategies: [UnleashStrategy]
  public let variants: [UnleashVariant]
  public let dependencies: [Dependency]

  /// A parent toggle this one needs: enabled (or not), and with one of `variants` when given.
  public struct Dependency: Sendable {
    public let feature: String
    public let enabled: Bool
    public let variants: [String]?
  }

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    name = try reader.required(members, "name", path, reader.string)
    enabled = try reader.required(members, "enabled", path, reader.bool)
    strategies = try reader.optional(members, "strategies", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try UnleashStrategy(value, path: path, reader: reader) }
    } ?? []
    variants = try reader.optional(members, "variants", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try UnleashVariant(value, path: path, reader: reader) }
    } ?? []
    dependencies = try reader.optional(members, "dependencies", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in
        let members = try reader.object(value, path)
        return Dependency(
          feature: try reader.required(members, "feature", path, reader.string),
          enabled: try reader.optional(members, "enabled", path, reader.bool) ?? true,
          variants: try reader.optional(members, "variants", path) { value, path throws(BucketingError) in
            try reader.list(value, path, reader.string)
          })
      }
    } ?? []
  }
}

/// An activation strategy: its name and parameters (all strings), constraints,
/// segments and, for strategy variants, its own variants.
public struct UnleashStrategy: Sendable {
  public let name: String
  public let parameters: [String: String]
  public let constraints: [UnleashConstraint]
  public let segments: [Int64]
  /// nil when the strategy has no `variants` member; an empty list still
  /// makes it a variant strategy, which then serves the feature's variants.
  public let variants: [UnleashVariant]?

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    name = try reader.required(members, "name", path, reader.string)
    var parameters: [String: String] = [:]
    let given: [String: JSONValue] = try reader.optional(members, "parameters", path, reader.object) ?? [:]
    for (key, value) in given {
      parameters[key] = try reader.string(value, "\(path).parameters.\(key)")
    }
    self.parameters = parameters
    constraints = try reader.optional(members, "constraints", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try UnleashConstraint(value, path: path, reader: reader) }
    } ?? []
    segments = try reader.optional(members, "segments", path) { value, path throws(BucketingError) in
      try reader.list(value, path, reader.integer)
    } ?? []
    variants = try reader.optional(members, "variants", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in try UnleashVariant(value, path: path, reader: reader) }
    }
  }
}

/// A variant with its weight (out of the variants' total), stickiness and overrides.
public struct UnleashVariant: Sendable {
  public let name: String
  public let weight: Int64
  public let stickiness: String?
  public let overrides: [Override]

  /// Context values that get this variant whatever the hash says.
  public struct Override: Sendable {
    public let contextName: String
    public let values: [String]
  }

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    name = try reader.required(members, "name", path, reader.string)
    weight = try reader.required(members, "weight", path, reader.integer)
    guard (0...Int64(Int32.max)).contains(weight) else {
      throw reader.error("\(path).weight", "must be between 0 and \(Int32.max), as the engine reads it")
    }
    stickiness = try reader.optional(members, "stickiness", path, reader.string)
    overrides = try reader.optional(members, "overrides", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in
        let members = try reader.object(value, path)
        return Override(
          contextName: try reader.required(members, "contextName", path, reader.string),
          values: try reader.required(members, "values", path) { value, path throws(BucketingError) in try reader.list(value, path, reader.string) })
      }
    } ?? []
  }
}
