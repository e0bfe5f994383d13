// SPDX-License-Identifier: Apache-2.0

/// Optimizely's bucketing: an id is hashed with MurmurHash3 (seed 1) together
/// with the experiment's (or group's) id, scaled to 10,000 buckets, and the
/// first traffic allocation entry whose end of range lies above the bucket
/// takes it.
public enum OptimizelyBucketer {
  /// Buckets in an experiment: traffic allocation is in units of 0.01%.
  public static let bucketCount = 10_000

  /// The bucket of `bucketingID` in the experiment or group `parentID`:
  /// ⌊hash / 2³² × 10,000⌋, computed in doubles as the SDKs do.
  public static func bucket(bucketingID: String, parentID: String) -> Int {
    let hash = MurmurHash3.x86_32(bucketingID + parentID, seed: 1)
    return Int((Double(hash) / 0x1p32 * Double(bucketCount)).rounded(.down))
  }

  /// The entity whose range holds `bucket`, `nil` when none does (the
  /// traffic the allocation leaves out).
  public static func entity(for bucket: Int, in allocation: [OptimizelyDatafile.TrafficAllocation]) -> String? {
    allocation.first { bucket < $0.endOfRange }?.entityId
  }

  /// The traffic allocation for variations with `weights` when `traffic` of
  /// the users take part, laid out as Optimizely's docs imply ("you can
  /// increase total traffic and rest assured that the same users always get
  /// the enabled feature"): each variation owns its share of the 10,000
  /// buckets, and the first `traffic` of that share is bucketed into it, the
  /// rest into nobody (an empty entity id). Raising the traffic only adds
  /// buckets to each variation; changing the weights moves the boundaries.
  public static func allocation(
    variationIDs: [String], weights: [Double], traffic: Double
  ) -> [OptimizelyDatafile.TrafficAllocation] {
    let total = weights.reduce(0, +)
    let traffic = min(max(traffic, 0), 1)
    var allocation: [OptimizelyDatafile.TrafficAllocation] = []
    var start = 0.0
    for (id, weight) in zip(variationIDs, weights) {
      let share = total > 0 ? weight / total * Double(bucketCount) : 0
      let included = Int((start + share * traffic).rounded()), end = Int((start + share).rounded())
      allocation.append(.init(entityId: id, endOfRange: included))
      if end > included { allocation.append(.init(entityId: "", endOfRange: end)) }
      start += share
    }
    return allocation
  }
}
