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
  /// The attribute hashed when the hash attribute has no value, with sticky
  /// bucketing only (as the SDKs do): an anonymous id before a login.
  public var fallbackAttribute: String?
  /// Keeps this experiment out of sticky bucketing even when the app has it.
  public var disableStickyBucketing = false
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
  /// Each variation's key (its `meta`, `nil` where the meta has none),
  /// which sticky bucket documents store: a stored variation is found again
  /// only by a key the meta gives, as in the SDKs.
  public var variationKeys: [String?]?
  /// The variations a feature rule passes through (`meta[i].passthrough`): a
  /// user in one is in the experiment, and the feature goes on to the next rule.
  public var passthroughVariations: Set<Int> = []

  public init(
    key: String, variations: [AttributeValue], weights: [Double]? = nil, coverage: Double? = nil,
    condition: AttributeValue? = nil, namespace: GrowthBookHash.Namespace? = nil,
    filters: [GrowthBookHash.Filter] = [], ranges: [GrowthBookHash.Range]? = nil, force: Int? = nil,
    hashAttribute: String = "id", hashVersion: Int = 1, seed: String? = nil, active: Bool = true,
    status: String = "running", bucketVersion: Int = 0, minBucketVersion: Int = 0, variationKeys: [String?]? = nil
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

  /// An experiment as a payload's experiment rule or an app's inline
  /// experiment defines it, with the payload's types already checked
  /// (`GrowthBookPayload`); `key` is the rule's feature key, used when the
  /// definition has none.
  init(members: [String: AttributeValue], key featureKey: String) {
    let namespace = members["namespace"]?.array.flatMap { parts -> GrowthBookHash.Namespace? in
      guard parts.count == 3, let id = parts[0].string, let start = parts[1].number, let end = parts[2].number else { return nil }
      return GrowthBookHash.Namespace(id: id, start: start, end: end)
    }
    let meta = members["meta"]?.array?.map { $0.object ?? [:] }
    self.init(
      key: members["key"]?.string ?? featureKey, variations: members["variations"]?.array ?? [],
      weights: members["weights"]?.array?.compactMap(\.number), coverage: members["coverage"]?.number,
      condition: members["condition"], namespace: namespace, filters: Self.filters(members["filters"]),
      ranges: Self.ranges(members["ranges"]), force: members["force"]?.number.map(Self.clampedWhole),
      hashAttribute: members["hashAttribute"]?.string ?? "id", hashVersion: Self.hashVersion(members["hashVersion"]),
      seed: members["seed"]?.string, active: members["active"].map(GrowthBookPayload.isTruthy) ?? true,
      status: members["status"]?.string ?? "running",
      bucketVersion: members["bucketVersion"]?.number.map(Self.clampedWhole) ?? 0,
      minBucketVersion: members["minBucketVersion"]?.number.map(Self.clampedWhole) ?? 0,
      variationKeys: meta?.map { $0["key"]?.string })
    fallbackAttribute = members["fallbackAttribute"]?.string
    disableStickyBucketing = members["disableStickyBucketing"].map(GrowthBookPayload.isTruthy) ?? false
    passthroughVariations = Set(meta?.indices.filter { meta![$0]["passthrough"].map(GrowthBookPayload.isTruthy) ?? false } ?? [])
  }

  /// A hash version as the SDK reads it (`hashVersion || 1`): none, or 0,
  /// is 1; one it does not know (not a whole number, or beyond Int) hashes
  /// to nothing, as any version but 1 and 2 does.
  static func hashVersion(_ value: AttributeValue?) -> Int {
    guard let number = value?.number, number != 0 else { return 1 }
    return Int(exactly: number) ?? -1
  }

  /// A rule's or an experiment's filters.
  static func filters(_ value: AttributeValue?) -> [GrowthBookHash.Filter] {
    value?.array?.compactMap(\.object).map { filter in
      GrowthBookHash.Filter(
        seed: filter["seed"]?.string ?? "", ranges: ranges(filter["ranges"]) ?? [],
        hashVersion: filter["hashVersion"]?.number.map { Int(exactly: $0) ?? -1 } ?? 2,
        attribute: filter["attribute"]?.string ?? "id")
    } ?? []
  }

  /// `[[start, end], …]` as ranges; a pair that is not two numbers is left out.
  static func ranges(_ value: AttributeValue?) -> [GrowthBookHash.Range]? {
    value?.array?.compactMap { pair in
      guard let bounds = pair.array, bounds.count == 2, let start = bounds[0].number, let end = bounds[1].number else { return nil }
      return GrowthBookHash.Range(start: start, end: end)
    }
  }

  /// A number the SDK uses as a whole one (a bucket version, a forced
  /// variation), truncated and clamped to `Int`'s range so that 1e300
  /// compares as the largest rather than trapping.
  static func clampedWhole(_ value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    if value >= 0x1p63 { return .max }
    if value < -0x1p63 { return .min }
    return Int(value.rounded(.towardZero))
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
    /// The attribute hashed (the fallback attribute when it stood in) and
    /// its value as hashed, `nil` without one.
    public let hashAttribute: String
    public let hashValue: String?
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

  /// Runs the experiment for a user, by the SDK's steps.
  ///
  /// - Parameters:
  ///   - forcedVariations: variations the app forces, by experiment key.
  ///   - sticky: the user's sticky bucket documents when the app keeps
  ///     them (`GrowthBookStickyBuckets`); a bucketed decision is saved in
  ///     the document of the attribute hashed. `nil` without sticky bucketing.
  /// - Parameter savedGroups: the payload's saved groups, for conditions with `$inGroup`.
  /// - Parameter patterns: the payload's compiled `$regex` patterns.
  public func run(
    attributes: [String: AttributeValue], forcedVariations: [String: Int] = [:], sticky: inout GrowthBookStickyBuckets?,
    savedGroups: [String: AttributeValue] = [:], patterns: GrowthBookPatterns = GrowthBookPatterns()
  ) -> Result {
    let usesSticky = sticky != nil && !disableStickyBucketing
    // The hash attribute's value, else (with sticky bucketing) the fallback attribute's.
    var hashed = hashAttribute, value = Self.hashValue(attributes[hashAttribute])
    if value == nil, usesSticky, let fallbackAttribute, let fallback = Self.hashValue(attributes[fallbackAttribute]) {
      hashed = fallbackAttribute
      value = fallback
    }
    func out(_ reason: Reason, sticky: Bool = false) -> Result {
      Result(
        inExperiment: false, variationID: 0, hashUsed: false, bucket: nil, stickyBucketUsed: sticky, reason: reason,
        hashAttribute: hashed, hashValue: value)
    }
    guard variations.count >= 2 else { return out(.tooFewVariations) }
    if let forced = forcedVariations[key] {
      return forced >= 0 && forced < variations.count
        ? Result(
          inExperiment: true, variationID: forced, hashUsed: false, bucket: nil, stickyBucketUsed: false,
          reason: .forcedByContext, hashAttribute: hashed, hashValue: value)
        : out(.forcedByContext)
    }
    guard active, status != "draft" else { return out(.inactive) }
    guard let hashValue = value else { return out(.noHashValue) }

    var assigned = -1, foundSticky = false, blocked = false
    if usesSticky, let documents = sticky {
      let assignments = documents.assignments(
        hashAttribute: (hashAttribute, Self.hashValue(attributes[hashAttribute]) ?? ""),
        fallbackAttribute: fallbackAttribute.map { ($0, Self.hashValue(attributes[$0]) ?? "") })
      if (0..<max(minBucketVersion, 0)).contains(where: { assignments["\(key)__\($0)"] != nil }) {
        blocked = true
      } else if let stored = assignments["\(key)__\(bucketVersion)"], let index = variationKeys?.firstIndex(where: { $0 == stored }) {
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
      if let condition,
        !GrowthBookCondition.evaluate(condition, attributes: attributes, savedGroups: savedGroups, patterns: patterns)
      {
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
        ? Result(
          inExperiment: true, variationID: force, hashUsed: false, bucket: nil, stickyBucketUsed: false, reason: .forced,
          hashAttribute: hashed, hashValue: hashValue)
        : out(.forced)
    }
    guard status != "stopped" else { return out(.stopped) }
    if usesSticky { sticky!.save(["\(key)__\(bucketVersion)": variationKey(assigned)], attribute: hashed, value: hashValue) }
    return Result(
      inExperiment: true, variationID: assigned, hashUsed: true, bucket: n, stickyBucketUsed: foundSticky,
      reason: foundSticky ? .stickyBucket : .bucketed, hashAttribute: hashed, hashValue: hashValue)
  }

  /// A variation's key, as the SDK reports it in a result and stores it
  /// in a sticky bucket document: its meta key, else its index.
  public func variationKey(_ index: Int) -> String {
    (variationKeys.flatMap { index >= 0 && index < $0.count ? $0[index] : nil }) ?? String(index)
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
