// SPDX-License-Identifier: Apache-2.0

/// A user's sticky bucket documents, as GrowthBook's sticky bucket service
/// keeps them: one per attribute name and value (`"id||123"`), each holding
/// the variation key of every experiment the user was bucketed in under that
/// attribute, by `"experiment key__bucket version"`.
///
/// An experiment reads the document of its hash attribute over that of its
/// fallback attribute, and saves a new bucket in the document of the
/// attribute it hashed: a user bucketed by an anonymous id before logging in
/// keeps the variation once the id is known, and both documents then hold it
/// (the SDK suite's `stickyBucket` section).
public struct GrowthBookStickyBuckets: Sendable, Hashable {
  /// By `"attribute name||attribute value"`: the assignments.
  public private(set) var documents: [String: [String: String]]

  public init(documents: [String: [String: String]] = [:]) {
    self.documents = documents
  }

  /// The key of the document of an attribute's value.
  public static func documentKey(attribute: String, value: String) -> String {
    attribute + "||" + value
  }

  /// What an experiment reads: the fallback attribute's assignments
  /// overlaid by the hash attribute's. A missing value reads as the empty
  /// text, whose document the SDK never writes.
  func assignments(hashAttribute: (name: String, value: String), fallbackAttribute: (name: String, value: String)?)
    -> [String: String]
  {
    var merged: [String: String] = [:]
    if let fallbackAttribute {
      merged = documents[Self.documentKey(attribute: fallbackAttribute.name, value: fallbackAttribute.value)] ?? [:]
    }
    for (experiment, variation) in documents[Self.documentKey(attribute: hashAttribute.name, value: hashAttribute.value)] ?? [:] {
      merged[experiment] = variation
    }
    return merged
  }

  /// Adds `assignments` to the document of `attribute`'s `value`, over what it held.
  public mutating func save(_ assignments: [String: String], attribute: String, value: String) {
    documents[Self.documentKey(attribute: attribute, value: value), default: [:]].merge(assignments) { $1 }
  }
}
