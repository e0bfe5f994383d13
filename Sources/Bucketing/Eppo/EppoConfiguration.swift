// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONDocument

/// Eppo's universal flag configuration as its server SDKs receive it
/// (`"format": "SERVER"`, not obfuscated): flags with variations and
/// allocations, each allocation's rules and splits, each split's shards.
public struct EppoConfiguration: Sendable {
  public let flags: [String: EppoFlag]
  /// What the SDK tolerates but the file's author did not mean.
  public let problems: [String]

  public init(json data: Data) throws(BucketingError) {
    let reader = VendorJSON(format: "Eppo universal flag configuration")
    let root = try reader.object(try reader.parse(data), "$")
    if let format = try reader.optional(root, "format", "$", reader.string), format != "SERVER" {
      throw reader.error("$.format", "is \"\(format)\": the bench reads the server configuration, whose keys and values are not obfuscated")
    }
    var flags: [String: EppoFlag] = [:], problems: [String] = []
    for (name, value) in try reader.required(root, "flags", "$", reader.object) {
      let flag = try EppoFlag(value, path: "flags.\(name)", reader: reader)
      flags[name] = flag
      for allocation in flag.allocations {
        for split in allocation.splits where flag.variations[split.variationKey] == nil {
          problems.append("flag '\(name)', allocation '\(allocation.key)': a split serves '\(split.variationKey)', which is not a variation: the SDK returns the default")
        }
      }
      // Ranges count shards of `totalShards` (10,000 by default): 0 to 50 written for 50% is 0.5% of subjects.
      let ends = flag.allocations.flatMap(\.splits).flatMap(\.shards).flatMap(\.ranges).map(\.upperBound)
      if let largest = ends.max(), largest > flag.totalShards {
        problems.append(
          "flag '\(name)': a shard range ends at \(largest), past totalShards \(flag.totalShards): shards are 0 to \(flag.totalShards - 1), "
            + "so the SDK never reaches the rest")
      } else if let largest = ends.max(), largest > 0, largest <= 100, flag.totalShards >= 1000 {
        let share = String(format: "%g", Double(largest) / Double(flag.totalShards) * 100)
        problems.append(
          "flag '\(name)': every shard range ends by \(largest) of totalShards \(flag.totalShards), so its splits take at most \(share)% "
            + "of subjects; ranges count shards, not percent (50% is 0 to \(flag.totalShards / 2))")
      }
    }
    self.flags = flags
    self.problems = problems.sorted()
  }
}

/// One flag: its variations by key and its allocations in order.
public struct EppoFlag: Sendable {
  public let key: String
  public let enabled: Bool
  public let variationType: String
  public let variations: [String: JSONValue]
  public let allocations: [Allocation]
  public let totalShards: Int64
  /// The distinct salts of the flag's shards (scalar for scalar): an
  /// assignment hashes each once, whichever splits share it.
  public let salts: [String]

  /// Who an allocation takes (its rules, between its start and end) and how it splits them.
  public struct Allocation: Sendable {
    public let key: String
    public let rules: [[EppoCondition]]
    public let startAt: Date?
    public let endAt: Date?
    public internal(set) var splits: [Split]
  }

  /// A variation for the subjects whose shards all fall in their ranges.
  public struct Split: Sendable {
    public let variationKey: String
    public internal(set) var shards: [Shard]
  }

  /// A salt and the ranges of shard numbers, each [start, end).
  public struct Shard: Sendable {
    public let salt: String
    public let ranges: [Range<Int64>]
    /// The salt's place in the flag's `salts`.
    public internal(set) var saltIndex = 0
  }

  static let variationTypes: Set<String> = ["STRING", "INTEGER", "NUMERIC", "BOOLEAN", "JSON"]

  init(_ value: JSONValue, path: String, reader: VendorJSON) throws(BucketingError) {
    let members = try reader.object(value, path)
    key = try reader.required(members, "key", path, reader.string)
    enabled = try reader.required(members, "enabled", path, reader.bool)
    variationType = try reader.required(members, "variationType", path, reader.string)
    guard Self.variationTypes.contains(variationType) else {
      throw reader.error("\(path).variationType", "is \"\(variationType)\": one of \(Self.variationTypes.sorted().joined(separator: ", ")) was expected")
    }
    var variations: [String: JSONValue] = [:]
    for (name, value) in try reader.required(members, "variations", path, reader.object) {
      let variation = try reader.object(value, "\(path).variations.\(name)")
      _ = try reader.required(variation, "key", "\(path).variations.\(name)", reader.string)
      variations[name] = variation["value"] ?? .null
    }
    self.variations = variations
    totalShards = try reader.optional(members, "totalShards", path, reader.integer) ?? 10_000
    guard totalShards > 0 else { throw reader.error("\(path).totalShards", "must be above 0") }
    var allocations = try reader.required(members, "allocations", path) { value, path throws(BucketingError) in
      try reader.list(value, path) { value, path throws(BucketingError) in
        let members = try reader.object(value, path)
        func date(_ name: String) throws(BucketingError) -> Date? {
          guard let text = try reader.optional(members, name, path, reader.string) else { return nil }
          guard let date = EppoFlag.date(text) else { throw reader.error("\(path).\(name)", "'\(text)' is not an ISO 8601 time") }
          return date
        }
        return Allocation(
          key: try reader.required(members, "key", path, reader.string),
          rules: try reader.optional(members, "rules", path) { value, path throws(BucketingError) in
            try reader.list(value, path) { value, path throws(BucketingError) in
              let rule = try reader.object(value, path)
              return try reader.required(rule, "conditions", path) { value, path throws(BucketingError) in
                try reader.list(value, path) { value, path throws(BucketingError) in try EppoCondition(value, path: path, reader: reader) }
              }
            }
          } ?? [],
          startAt: try date("startAt"), endAt: try date("endAt"),
          splits: try reader.required(members, "splits", path) { value, path throws(BucketingError) in
            try reader.list(value, path) { value, path throws(BucketingError) in
              let members = try reader.object(value, path)
              return Split(
                variationKey: try reader.required(members, "variationKey", path, reader.string),
                shards: try reader.required(members, "shards", path) { value, path throws(BucketingError) in
                  try reader.list(value, path) { value, path throws(BucketingError) in
                    let members = try reader.object(value, path)
                    return Shard(
                      salt: try reader.required(members, "salt", path, reader.string),
                      ranges: try reader.required(members, "ranges", path) { value, path throws(BucketingError) in
                        try reader.list(value, path) { value, path throws(BucketingError) in
                          let members = try reader.object(value, path)
                          let start = try reader.required(members, "start", path, reader.integer)
                          let end = try reader.required(members, "end", path, reader.integer)
                          guard start <= end else { throw reader.error(path, "start \(start) is after end \(end)") }
                          return start..<end
                        }
                      })
                  }
                })
            }
          })
      }
    }
    salts = Self.indexSalts(&allocations)
    self.allocations = allocations
  }

  /// Numbers each shard's salt in `salts`.
  private static func indexSalts(_ allocations: inout [Allocation]) -> [String] {
    var salts: [String] = [], index: [ExactText: Int] = [:]
    for a in allocations.indices {
      for s in allocations[a].splits.indices {
        for h in allocations[a].splits[s].shards.indices {
          let salt = allocations[a].splits[s].shards[h].salt
          let number = index[ExactText(salt)] ?? {
            salts.append(salt)
            index[ExactText(salt)] = salts.count - 1
            return salts.count - 1
          }()
          allocations[a].splits[s].shards[h].saltIndex = number
        }
      }
    }
    return salts
  }

  /// An ISO 8601 time with a zone, to the millisecond (`2024-04-17T19:40:53.716Z`).
  static func date(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
  }
}
