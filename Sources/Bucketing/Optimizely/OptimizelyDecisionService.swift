// SPDX-License-Identifier: Apache-2.0

/// Optimizely's decisions for one user, by the SDK's rules, on one datafile.
///
/// For an experiment: only a running experiment decides; then a whitelisted
/// user gets their variation; then a variation the user profile store holds
/// for the experiment, if it still exists; then the audience must admit the
/// user; then the group (mutually exclusive experiments) must bucket the user
/// into this experiment; then the experiment's traffic allocation buckets the
/// user, and the decision is saved to the profile. For a feature flag: its
/// feature tests in order, then its rollout's targeting rules (a rule whose
/// audience matches but whose traffic leaves the user out skips to the last
/// rule, "Everyone Else").
public struct OptimizelyDecisionService: Sendable {
  public let datafile: OptimizelyDatafile
  private let experimentsByKey: [String: OptimizelyDatafile.Experiment]
  private let experimentsByID: [String: OptimizelyDatafile.Experiment]
  private let groups: [String: OptimizelyDatafile.Group]
  private let audiences: [String: OptimizelyDatafile.Audience]

  /// The attribute that replaces the user id for bucketing when it is a string.
  public static let bucketingIDAttribute = "$opt_bucketing_id"

  public init(datafile: OptimizelyDatafile) {
    self.datafile = datafile
    let experiments = datafile.allExperiments
    experimentsByKey = Dictionary(experiments.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    experimentsByID = Dictionary(
      (experiments + datafile.rollouts.flatMap(\.experiments)).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    groups = Dictionary(datafile.groups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var audiences = Dictionary(datafile.audiences.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for typed in datafile.typedAudiences { audiences[typed.id] = typed }
    self.audiences = audiences
  }

  public func experiment(key: String) -> OptimizelyDatafile.Experiment? { experimentsByKey[key] }

  /// Why a decision came out as it did: the bench's `bucket` command prints it.
  public enum Reason: String, Sendable, Hashable {
    case notRunning = "experiment not running"
    case whitelisted = "whitelisted"
    case userProfile = "stored in the user profile"
    case audienceMismatch = "audience does not match"
    case notInGroupSlice = "bucketed into another experiment of its group"
    case outsideTraffic = "bucket outside the traffic allocation"
    case bucketed = "bucketed"
    case unknownExperiment = "no such experiment"
  }

  /// A decision for one experiment.
  public struct Decision: Sendable, Hashable {
    public let variation: OptimizelyDatafile.Variation?
    /// The user's bucket in the experiment, when bucketing ran.
    public let bucket: Int?
    public let reason: Reason
  }

  /// The user's variation in the experiment `key`.
  ///
  /// - Parameter profile: the variation id the user profile store holds per
  ///   experiment id; a bucketed decision is added to it. `nil` without a store.
  public func decide(
    experiment key: String, userID: String, attributes: [String: AttributeValue], profile: inout [String: String]?
  ) -> Decision {
    guard let experiment = experimentsByKey[key] else { return Decision(variation: nil, bucket: nil, reason: .unknownExperiment) }
    return decide(experiment, userID: userID, attributes: attributes, profile: &profile)
  }

  func decide(
    _ experiment: OptimizelyDatafile.Experiment, userID: String, attributes: [String: AttributeValue],
    profile: inout [String: String]?
  ) -> Decision {
    guard experiment.status == "Running" else { return Decision(variation: nil, bucket: nil, reason: .notRunning) }
    if let key = experiment.forcedVariations[userID], let variation = experiment.variation(key: key) {
      return Decision(variation: variation, bucket: nil, reason: .whitelisted)
    }
    if let stored = profile?[experiment.id], let variation = experiment.variation(id: stored) {
      return Decision(variation: variation, bucket: nil, reason: .userProfile)
    }
    guard OptimizelyAudience.admits(experiment, audiences: audiences, attributes: attributes) else {
      return Decision(variation: nil, bucket: nil, reason: .audienceMismatch)
    }
    let (variation, bucket, reason) = bucket(experiment, userID: userID, attributes: attributes)
    if let variation, profile != nil { profile![experiment.id] = variation.id }
    return Decision(variation: variation, bucket: bucket, reason: reason)
  }

  private func bucket(
    _ experiment: OptimizelyDatafile.Experiment, userID: String, attributes: [String: AttributeValue]
  ) -> (OptimizelyDatafile.Variation?, Int?, Reason) {
    let bucketingID = attributes[Self.bucketingIDAttribute]?.string ?? userID
    if let groupID = experiment.groupId {
      guard let group = groups[groupID] else { return (nil, nil, .notInGroupSlice) }
      let groupBucket = OptimizelyBucketer.bucket(bucketingID: bucketingID, parentID: groupID)
      guard OptimizelyBucketer.entity(for: groupBucket, in: group.trafficAllocation) == experiment.id else {
        return (nil, groupBucket, .notInGroupSlice)
      }
    }
    let bucket = OptimizelyBucketer.bucket(bucketingID: bucketingID, parentID: experiment.id)
    guard let id = OptimizelyBucketer.entity(for: bucket, in: experiment.trafficAllocation),
      let variation = experiment.variation(id: id)
    else { return (nil, bucket, .outsideTraffic) }
    return (variation, bucket, .bucketed)
  }

  /// A feature flag's decision: whether it is on and its variables' values.
  public struct FeatureDecision: Sendable, Hashable {
    public let isEnabled: Bool
    /// Each variable's value by key: the variation's where the flag is on
    /// and the variation sets it, the default otherwise.
    public let variables: [String: String]
    /// The experiment or rule that decided, if any.
    public let source: String?
  }

  /// The flag `key` for a user; `nil` when the datafile has no such flag.
  public func feature(
    _ key: String, userID: String, attributes: [String: AttributeValue], profile: inout [String: String]?
  ) -> FeatureDecision? {
    guard let flag = datafile.featureFlags.first(where: { $0.key == key }) else { return nil }
    var decided: (variation: OptimizelyDatafile.Variation, source: String)?
    for id in flag.experimentIds {
      guard let experiment = experimentsByID[id],
        let variation = decide(experiment, userID: userID, attributes: attributes, profile: &profile).variation
      else { continue }
      decided = (variation, experiment.key)
      break
    }
    if decided == nil, let rolloutID = flag.rolloutId, let rollout = datafile.rollouts.first(where: { $0.id == rolloutID }) {
      decided = rolloutDecision(rollout, userID: userID, attributes: attributes)
    }
    let isEnabled = decided?.variation.featureEnabled ?? false
    var variables: [String: String] = [:]
    for variable in flag.variables {
      let usage = decided?.variation.variables?.first { $0.id == variable.id }
      variables[variable.key] = isEnabled ? usage?.value ?? variable.defaultValue : variable.defaultValue
    }
    return FeatureDecision(isEnabled: isEnabled, variables: variables, source: decided?.source)
  }

  private func rolloutDecision(
    _ rollout: OptimizelyDatafile.Rollout, userID: String, attributes: [String: AttributeValue]
  ) -> (variation: OptimizelyDatafile.Variation, source: String)? {
    let rules = rollout.experiments
    var index = 0
    while index < rules.count {
      let rule = rules[index], isEveryoneElse = index == rules.count - 1
      var next = index + 1
      if OptimizelyAudience.admits(rule, audiences: audiences, attributes: attributes) {
        if case (let variation?, _, _) = bucket(rule, userID: userID, attributes: attributes) {
          return (variation, rule.key)
        }
        if !isEveryoneElse { next = rules.count - 1 }
      }
      index = next
    }
    return nil
  }
}
