// SPDX-License-Identifier: Apache-2.0

import Digests
import Foundation
import JSONDocument

/// Assigns variations as Eppo's SDKs do (their shared core): the first
/// allocation that is running, whose rules hold (any rule, all of its
/// conditions; no rules is everyone) and one of whose splits takes the
/// subject decides; a split takes the subject when every shard does, a
/// shard when MD5("SALT-SUBJECT")'s first four bytes, modulo the flag's
/// total shards, fall in one of its ranges.
public struct EppoEvaluator: Sendable {
  public let configuration: EppoConfiguration

  public init(configuration: EppoConfiguration) {
    self.configuration = configuration
  }

  /// The variation key, or nil where the SDK returns the caller's default, and why.
  public struct Assignment: Sendable, Hashable {
    public let variationKey: String?
    public let reason: String
    /// The shard of the first shard the deciding split checked.
    public let shard: Int64?
  }

  /// The shard of `subject` under `salt`: 0 ..< `totalShards`.
  public static func shard(_ subject: String, salt: String, totalShards: Int64) -> Int64 {
    let digest = MD5.digest(of: Array("\(salt)-\(subject)".utf8))
    let value = digest[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return Int64(value) % totalShards
  }

  public func assign(_ flagKey: String, subject: String, attributes: [String: JSONValue], now: Date) -> Assignment {
    guard let flag = configuration.flags[flagKey] else { return Assignment(variationKey: nil, reason: "no such flag", shard: nil) }
    guard flag.enabled else { return Assignment(variationKey: nil, reason: "the flag is disabled", shard: nil) }
    var attributes = attributes
    if attributes["id"] == nil { attributes["id"] = .string(subject) }
    for allocation in flag.allocations {
      if let start = allocation.startAt, now < start { continue }
      if let end = allocation.endAt, now >= end { continue }
      guard allocation.rules.isEmpty || allocation.rules.contains(where: { $0.allSatisfy { $0.holds(attributes[$0.attribute]) } }) else {
        continue
      }
      for split in allocation.splits {
        let shards = split.shards.map { Self.shard(subject, salt: $0.salt, totalShards: flag.totalShards) }
        guard zip(split.shards, shards).allSatisfy({ shard, value in shard.ranges.contains { $0.contains(value) } }) else { continue }
        guard let value = flag.variations[split.variationKey] else {
          return Assignment(variationKey: nil, reason: "the split serves '\(split.variationKey)', which is not a variation", shard: shards.first)
        }
        guard Self.fits(value, flag.variationType) else {
          return Assignment(variationKey: nil, reason: "the variation's value is not of type \(flag.variationType)", shard: shards.first)
        }
        return Assignment(variationKey: split.variationKey, reason: "allocation '\(allocation.key)'", shard: shards.first)
      }
    }
    return Assignment(variationKey: nil, reason: "no allocation took the subject", shard: nil)
  }

  /// Whether a variation's value is of the flag's type (the SDK returns the default otherwise).
  static func fits(_ value: JSONValue, _ type: String) -> Bool {
    switch (type, value) {
    case ("STRING", .string), ("BOOLEAN", .bool), ("NUMERIC", .integer), ("NUMERIC", .number), ("INTEGER", .integer): true
    case ("INTEGER", .number(let number)): number.rounded() == number
    case ("JSON", .string): true
    default: false
    }
  }
}
