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
    /// The shard of the first shard the deciding split checked.
    public let shard: Int64?
    let why: Why

    /// Why, kept as data: the simulator asks millions of times and never reads it.
    enum Why: Sendable, Hashable {
      case noFlag, disabled, noAllocation
      case missingVariation(String)
      case wrongType(String)
      case allocation(String)
    }

    init(variationKey: String?, shard: Int64?, why: Why) {
      (self.variationKey, self.shard, self.why) = (variationKey, shard, why)
    }

    /// The reason, readable.
    public var reason: String {
      switch why {
      case .noFlag: "no such flag"
      case .disabled: "the flag is disabled"
      case .noAllocation: "no allocation took the subject"
      case .missingVariation(let key): "the split serves '\(key)', which is not a variation"
      case .wrongType(let type): "the variation's value is not of type \(type)"
      case .allocation(let key): "allocation '\(key)'"
      }
    }
  }

  /// The shard of `subject` under `salt`: 0 ..< `totalShards`.
  public static func shard(_ subject: String, salt: String, totalShards: Int64) -> Int64 {
    // MD5 writes its first word little-endian: its first four bytes, read big-endian, are the word byte-swapped.
    let value = MD5.words(of: "\(salt)-\(subject)".utf8)[0].byteSwapped
    return Int64(value) % totalShards
  }

  public func assign(_ flagKey: String, subject: String, attributes: [String: JSONValue], now: Date) -> Assignment {
    guard let flag = configuration.flags[flagKey] else { return Assignment(variationKey: nil, shard: nil, why: .noFlag) }
    guard flag.enabled else { return Assignment(variationKey: nil, shard: nil, why: .disabled) }
    // The subject's key is the attribute "id" unless the attributes give one.
    func attribute(_ name: String) -> JSONValue? {
      attributes[name] ?? (name == "id" ? .string(subject) : nil)
    }
    // Splits share salts (the traffic's, the variations'): each salt is hashed once per assignment.
    var shards = [Int64](repeating: -1, count: flag.salts.count)
    func shard(_ shard: EppoFlag.Shard) -> Int64 {
      if shards[shard.saltIndex] < 0 {
        shards[shard.saltIndex] = Self.shard(subject, salt: shard.salt, totalShards: flag.totalShards)
      }
      return shards[shard.saltIndex]
    }
    for allocation in flag.allocations {
      if let start = allocation.startAt, now < start { continue }
      if let end = allocation.endAt, now >= end { continue }
      guard allocation.rules.isEmpty || allocation.rules.contains(where: { $0.allSatisfy { $0.holds(attribute($0.attribute)) } }) else {
        continue
      }
      for split in allocation.splits {
        let values = split.shards.map(shard)
        guard zip(split.shards, values).allSatisfy({ shard, value in shard.ranges.contains { $0.contains(value) } }) else { continue }
        guard let value = flag.variations[split.variationKey] else {
          return Assignment(variationKey: nil, shard: values.first, why: .missingVariation(split.variationKey))
        }
        guard Self.fits(value, flag.variationType) else {
          return Assignment(variationKey: nil, shard: values.first, why: .wrongType(flag.variationType))
        }
        return Assignment(variationKey: split.variationKey, shard: values.first, why: .allocation(allocation.key))
      }
    }
    return Assignment(variationKey: nil, shard: nil, why: .noAllocation)
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
