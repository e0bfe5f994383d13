// SPDX-License-Identifier: Apache-2.0

/// A GrowthBook experiment as its SDKs run it, and the run itself.
public struct GrowthBookExperiment: Sendable, Hashable {
  public var key: String
  /// The variations' values; their count is what bucketing needs.
  public var variations: [AttributeValue]
  public var weights: [Double]?
  public var coverage: Double?
  public var condition: AttributeValue?
  public var namespace: GrowthBookHash.Namespace?
  /// Filters replace the namespace when there are any.
  public var filters: [GrowthBookHash.Filter]
  /// Each variation's slice of the hash, replacing the weights and the coverage when given.
  public var ranges: [GrowthBookHash.Range]?
  /// A variation every bucketed user gets (still only users the coverage admits).
  public var force: Int?
  public var hashAttribute: String
  public var hashVersion: Int
  /// The hash seed; the key when absent.
  public var seed: String?
  public var active: Bool
  /// "running", "draft" or "stopped".
  public var status: String
  /// Sticky bucketing: assignments are kept per bucket version, and versions
  /// below `minBucketVersion` exclude their users.
  public var bucketVersion: Int
  public var minBucketVersion: Int
  /// Each variation's key for sticky bucket documents; its index when absent.
  public var variationKeys: [String]?

  public init(
    key: String, variations: [AttributeValue], weights: [Double]? = nil, coverage: Double? = nil,
    condition: AttributeValue? = nil, namespace: GrowthBookHash.Namespace? = nil,
    filters: [GrowthBookHash.Filter] = [], ranges: [GrowthBookHash.Range]? = nil, force: Int? = nil,
    hashAttribute: String = "id", hashVersion: Int = 1, seed: String? = nil, active: Bool = true,
    status: String = "running", bucketVersion: Int = 0, minBucketVersion: Int = 0, variationKeys: [String]? = nil
  ) {
    self.key = key
    self.variations = variations
    self.weights = weights
    self.coverage = coverage
    self.condition = condition
    self.namespace = namespace
    self.filters = filters
    self.ranges = ranges
    self.force = force
    self.hashAttribute = hashAttribute
    self.hashVersion = hashVersion
    self.seed = seed
    self.active = active
    self.status = status
    self.bucketVersion = bucketVersion
    self.minBucketVersion = minBucketVersion
    self.variationKeys = variationKeys
  }

  /// What a run decided.
  public struct Result: Sendable, Hashable {
    public let inExperiment: Bool
    /// The variation; 0 (the control's value) when not in the experiment.
    public let variationID: Int
    /// Whether the hash decided (not a forced variation or a sticky bucket).
    public let hashUsed: Bool
    /// The user's hash, for a user the hash put in the experiment.
    public let bucket: Double?
    public let stickyBucketUsed: Bool
    public let reason: Reason
  }

  /// Why a run decided as it did: the bench's `bucket` command prints it.
  public enum Reason: String, Sendable, Hashable {
    case tooFewVariations = "fewer than two variations"
    case forcedByContext = "forced by the app"
    case inactive = "draft or inactive"
    case noHashValue = "no value for the hash attribute"
    case outsideNamespace = "outside the namespace"
    case filteredOut = "filtered out"
    case conditionFailed = "condition not met"
    case invalidHashVersion = "unknown hash version"
    case blockedBucketVersion = "sticky bucket of a blocked version"
    case outsideCoverage = "outside the coverage"
    case forced = "forced variation"
    case stopped = "stopped"
    case stickyBucket = "sticky bucket"
    case bucketed = "bucketed"
  }

  /// Sticky bucket assignments of one user, as GrowthBook stores them: the
  /// variation key by "experiment key__bucket version".
  public typealias StickyAssignments = [String: String]

  /// Runs the experiment for a user, by the SDK's steps.
  ///
  /// - Parameters:
  ///   - forcedVariations: variations the app forces, by experiment key.
  ///   - sticky: the user's sticky bucket assignments when the app keeps
  ///     them; a bucketed decision is added. `nil` without sticky bucketing.
  /// - Parameter savedGroups: the payload's saved groups, for conditions with `$inGroup`.
  public func run(
    attributes: [String: AttributeValue], forcedVariations: [String: Int] = [:], sticky: inout StickyAssignments?,
    savedGroups: [String: AttributeValue] = [:]
  ) -> Result {
    func out(_ reason: Reason, sticky: Bool = false) -> Result {
      Result(inExperiment: false, variationID: 0, hashUsed: false, bucket: nil, stickyBucketUsed: sticky, reason: reason)
    }
    guard variations.count >= 2 else { return out(.tooFewVariations) }
    if let forced = forcedVariations[key] {
      return forced >= 0 && forced < variations.count
        ? Result(inExperiment: true, variationID: forced, hashUsed: false, bucket: nil, stickyBucketUsed: false, reason: .forcedByContext)
        : out(.forcedByContext)
    }
    guard active, status != "draft" else { return out(.inactive) }
    guard let hashValue = Self.hashValue(attributes[hashAttribute]) else { return out(.noHashValue) }

    var assigned = -1, foundSticky = false, blocked = false
    if let assignments = sticky {
      if (0..<minBucketVersion).contains(where: { assignments["\(key)__\($0)"] != nil }) {
        blocked = true
      } else if let stored = assignments["\(key)__\(bucketVersion)"], let index = keys.firstIndex(of: stored) {
        assigned = index
        foundSticky = true
      }
    }
    if !foundSticky {
      if !filters.isEmpty {
        if GrowthBookHash.Filter.filtersOut(filters, attributes: attributes) { return out(.filteredOut) }
      } else if let namespace, !namespace.contains(userID: hashValue) {
        return out(.outsideNamespace)
      }
      if let condition, !GrowthBookCondition.evaluate(condition, attributes: attributes, savedGroups: savedGroups) {
        return out(.conditionFailed)
      }
    }
    guard let n = GrowthBookHash.hash(seed: seed ?? key, value: hashValue, version: hashVersion) else {
      return out(.invalidHashVersion)
    }
    if !foundSticky {
      let given = ranges.flatMap { $0.isEmpty ? nil : $0 }
      assigned = GrowthBookHash.chooseVariation(
        n, ranges: given ?? GrowthBookHash.bucketRanges(count: variations.count, coverage: coverage ?? 1, weights: weights))
    }
    if blocked { return out(.blockedBucketVersion, sticky: true) }
    guard assigned >= 0 else { return out(.outsideCoverage) }
    if let force {
      return force >= 0 && force < variations.count
        ? Result(inExperiment: true, variationID: force, hashUsed: false, bucket: nil, stickyBucketUsed: false, reason: .forced)
        : out(.forced)
    }
    guard status != "stopped" else { return out(.stopped) }
    if sticky != nil { sticky!["\(key)__\(bucketVersion)"] = keys[assigned] }
    return Result(
      inExperiment: true, variationID: assigned, hashUsed: true, bucket: n, stickyBucketUsed: foundSticky,
      reason: foundSticky ? .stickyBucket : .bucketed)
  }

  /// Each variation's key: from `variationKeys`, else its index.
  private var keys: [String] {
    variations.indices.map { index in variationKeys.flatMap { index < $0.count ? $0[index] : nil } ?? String(index) }
  }

  /// The text a hash attribute's value is hashed as: a non-empty string, or a
  /// finite non-zero number written as JavaScript writes it; nothing else.
  static func hashValue(_ value: AttributeValue?) -> String? {
    switch value {
    case .string(let text)? where !text.isEmpty: return text
    case .number(let number)? where number.isFinite && number != 0: return JavaScriptNumber.string(number)
    default: return nil
    }
  }
}
