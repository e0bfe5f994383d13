// SPDX-License-Identifier: Apache-2.0

/// GrowthBook's bucketing arithmetic, as its SDKs compute it: a hash of the
/// user's id with a seed scaled to [0, 1), bucket ranges laid out from the
/// weights and the coverage, and namespaces that split users between
/// mutually exclusive experiments.
public enum GrowthBookHash {
  /// The user's place in [0, 1) for a seed: version 1 is FNV-1a of
  /// value + seed modulo 1,000; version 2 hashes the decimal digits of
  /// FNV-1a of seed + value again, modulo 10,000. `nil` for other versions.
  public static func hash(seed: String, value: String, version: Int) -> Double? {
    switch version {
    case 2:
      let inner = FNV1a.hash32(seed + value)
      return Double(FNV1a.hash32(String(inner)) % 10_000) / 10_000
    case 1:
      return Double(FNV1a.hash32(value + seed) % 1_000) / 1_000
    default:
      return nil
    }
  }

  /// One variation's range, `start ..< end`.
  public struct Range: Hashable, Sendable {
    public let start: Double
    public let end: Double

    public init(start: Double, end: Double) {
      self.start = start
      self.end = end
    }

    public func contains(_ n: Double) -> Bool { start <= n && n < end }
  }

  /// The ranges of `count` variations: each variation's weight is laid out
  /// in turn, and the first `coverage` of it is its range (coverage is
  /// clamped to [0, 1]). Weights that are not one finite, non-negative
  /// number per variation summing to 1 ± 0.01 are replaced by equal weights.
  public static func bucketRanges(count: Int, coverage: Double = 1, weights: [Double]? = nil) -> [Range] {
    let coverage = min(max(coverage, 0), 1)
    var cumulative = 0.0
    return normalizedWeights(count: count, weights).map { weight in
      let start = cumulative
      cumulative += weight
      return Range(start: start, end: start + coverage * weight)
    }
  }

  /// The weights bucketing uses: the given ones when valid, equal ones otherwise.
  public static func normalizedWeights(count: Int, _ weights: [Double]?) -> [Double] {
    if let weights, weights.count == count, weights.allSatisfy({ $0.isFinite && $0 >= 0 }) {
      let sum = weights.reduce(0, +)
      if sum >= 0.99 && sum <= 1.01 { return weights }
    }
    return count < 1 ? [] : Array(repeating: 1 / Double(count), count: count)
  }

  /// The variation whose range holds `n`, or -1 when none does (the users
  /// the coverage leaves out).
  public static func chooseVariation(_ n: Double, ranges: [Range]) -> Int {
    ranges.firstIndex { $0.contains(n) } ?? -1
  }

  /// A filter, the newer payloads' namespace: a user passes when the hash of
  /// `attribute` with `seed` falls in one of `ranges`; a user without a value
  /// for the attribute, or a hash version the SDK does not know, is filtered out.
  public struct Filter: Hashable, Sendable {
    public let seed: String
    public let ranges: [Range]
    public let hashVersion: Int
    public let attribute: String

    public init(seed: String = "", ranges: [Range], hashVersion: Int = 2, attribute: String = "id") {
      self.seed = seed
      self.ranges = ranges
      self.hashVersion = hashVersion
      self.attribute = attribute
    }

    /// Whether any of `filters` leaves the user out (the SDK's `isFilteredOut`).
    public static func filtersOut(_ filters: [Filter], attributes: [String: AttributeValue]) -> Bool {
      filters.contains { filter in
        guard let value = GrowthBookExperiment.hashValue(attributes[filter.attribute]),
          let n = GrowthBookHash.hash(seed: filter.seed, value: value, version: filter.hashVersion)
        else { return true }
        return !filter.ranges.contains { $0.contains(n) }
      }
    }
  }

  /// A namespace: users whose hash of "__" + `id` falls in `start ..< end`
  /// take part; experiments on disjoint slices of one namespace never share a user.
  public struct Namespace: Hashable, Sendable {
    public let id: String
    public let start: Double
    public let end: Double

    public init(id: String, start: Double, end: Double) {
      self.id = id
      self.start = start
      self.end = end
    }

    public func contains(userID: String) -> Bool {
      guard let n = GrowthBookHash.hash(seed: "__" + id, value: userID, version: 1) else { return false }
      return start <= n && n < end
    }
  }
}
