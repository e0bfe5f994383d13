import Bucketing
import Foundation
import JSONDocument
import ScenarioFormat

/// Optimizely (seed 001): a datafile per revision, decided by
/// `OptimizelyDecisionService`; the mobile SDKs keep a user profile by
/// default, cache a session's activations until the app restarts, and roll
/// out feature flags. Rule pages: OptimizelyActivation, OptimizelyFeatureFlag,
/// OptimizelyTrafficChange.
public enum OptimizelyPlatform: Platform {
  public static let traits = PlatformTraits(
    name: "optimizely", vendorName: "Optimizely", keepsDecisionsByDefault: true, rerandomization: nil, hasFeatureFlags: true,
    cachesActivationsUntilRestart: true,
    changeRulePage: "OptimizelyTrafficChange")

  public static let configurationName = "an Optimizely datafile"

  /// A datafile for one revision: experiment ids from the plan's order,
  /// traffic laid out by `OptimizelyBucketer.allocation`, the audience as
  /// "and" of an "or" per attribute and a semver condition on `app_version`.
  /// A concluded experiment sends all its traffic to the winner; a paused
  /// one is not running. Each flag the revision has is a rollout whose
  /// "Everyone Else" rule turns it on for its share of users; the rule keeps
  /// its id, so a wider share keeps everyone it had.
  public static func configuration(_ revision: DashboardRevision) -> OptimizelyDecisionService {
    var audiences: [OptimizelyDatafile.Audience] = []
    let indexOfName = Dictionary(uniqueKeysWithValues: revision.catalog.enumerated().map { ($1.name, $0) })
    let experiments = revision.experiments.map { experiment -> OptimizelyDatafile.Experiment in
      let s = indexOfName[experiment.name]!
      let id = String(1000 + s)
      let variations = experiment.variations.map { variation in
        OptimizelyDatafile.Variation(id: "\(id)-\(revision.catalog[s].variations.firstIndex(of: variation.name)!)", key: variation.name)
      }
      let weights = experiment.variations.map { experiment.winner == nil ? $0.weight : ($0.name == experiment.winner ? 1 : 0) }
      let allocation = OptimizelyBucketer.allocation(
        variationIDs: variations.map(\.id), weights: weights, traffic: experiment.winner == nil ? experiment.traffic : 1)
      var audienceConditions: AttributeValue?
      if let conditions = conditions(experiment.audience) {
        audiences.append(OptimizelyDatafile.Audience(id: "a\(id)", conditions: conditions))
        audienceConditions = .array([.string("or"), .string("a\(id)")])
      }
      return OptimizelyDatafile.Experiment(
        id: id, key: experiment.name, status: experiment.status == .paused ? "Paused" : "Running", variations: variations,
        trafficAllocation: allocation, audienceConditions: audienceConditions)
    }
    var featureFlags: [OptimizelyDatafile.FeatureFlag] = [], rollouts: [OptimizelyDatafile.Rollout] = []
    for (index, flag) in revision.flags.enumerated() {
      guard let share = revision.flagShares[flag] else { continue }
      let ruleID = String(5000 + index)
      let on = OptimizelyDatafile.Variation(id: "\(ruleID)-on", key: "on", featureEnabled: true)
      let rule = OptimizelyDatafile.Experiment(
        id: ruleID, key: "\(flag)-everyone-else", status: "Running", variations: [on],
        trafficAllocation: [.init(entityId: on.id, endOfRange: Int((share * 10_000).rounded()))])
      rollouts.append(OptimizelyDatafile.Rollout(id: "r\(ruleID)", experiments: [rule]))
      featureFlags.append(OptimizelyDatafile.FeatureFlag(id: "f\(ruleID)", key: flag, rolloutId: "r\(ruleID)"))
    }
    return OptimizelyDecisionService(
      datafile: OptimizelyDatafile(experiments: experiments, audiences: audiences, featureFlags: featureFlags, rollouts: rollouts))
  }

  private static func conditions(_ audience: ServiceAudience) -> AttributeValue? {
    func leaf(_ name: String, _ match: String, _ value: String) -> AttributeValue {
      .object(["name": .string(name), "type": .string("custom_attribute"), "match": .string(match), "value": .string(value)])
    }
    var parts: [AttributeValue] = audience.attributes.keys.sorted().map { name in
      .array([.string("or")] + audience.attributes[name]!.map { leaf(name, "exact", $0) })
    }
    if let minimum = audience.minimumAppVersion { parts.append(leaf("app_version", "semver_ge", minimum)) }
    return parts.isEmpty ? nil : .array([.string("and")] + parts)
  }

  public static func context(attributes: [String: AttributeValue]) -> [String: AttributeValue] {
    attributes
  }

  /// The attributes with the id as `id`, which audiences may read.
  public static func context(_ context: [String: AttributeValue], id: String) -> [String: AttributeValue] {
    context.merging(["id": .string(id)]) { _, id in id }
  }

  /// The user profile: decisions by experiment id, kept across restarts.
  public static func store(sticky: Bool) -> [String: String]? {
    sticky ? [:] : nil
  }

  public static func variation(
    of experiment: String, in configuration: OptimizelyDecisionService, id: String, context: [String: AttributeValue],
    store: inout [String: String]?
  ) -> String? {
    configuration.decide(experiment: experiment, userID: id, attributes: context, profile: &store).variation?.key
  }

  /// Seed 001: "The latest value will always be returned for a feature flag";
  /// flags read no user profile.
  public static func isFlagOn(
    _ flag: String, in configuration: OptimizelyDecisionService, id: String, context: [String: AttributeValue]
  ) -> Bool? {
    var noProfile: [String: String]?
    return configuration.feature(flag, userID: id, attributes: context, profile: &noProfile)?.isEnabled
  }

  /// Every experiment of the datafile, then (with `flags`) every feature
  /// flag, in the datafile's order. A flag's row names the flag; its
  /// variation is "on" or "off" with the rule that decided.
  public static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags includeFlags: Bool, now: Date)
    throws -> BucketDecisions
  {
    let datafile = try OptimizelyDatafile(json: config)
    return BucketDecisions(lines: lines(datafile, ids: ids, attributes: attributes.values, flags: includeFlags), problems: datafile.problems)
  }

  /// The lines of `decisions` for a datafile already read (the fuzz target's entry).
  public static func lines(_ datafile: OptimizelyDatafile, ids: [String], attributes: [String: AttributeValue], flags includeFlags: Bool = true)
    -> [BucketLine]
  {
    let service = OptimizelyDecisionService(datafile: datafile)
    return ids.flatMap { id in
      var profile: [String: String]? = nil
      let experiments = datafile.allExperiments.map { experiment in
        let decision = service.decide(experiment: experiment.key, userID: id, attributes: attributes, profile: &profile)
        return BucketRow(
          id: id, experiment: experiment.key, variation: decision.variation?.key, bucket: decision.bucket.map(Double.init),
          reason: decision.reason.rawValue)
      }
      let flags = !includeFlags ? [] : datafile.featureFlags.compactMap { flag -> BucketRow? in
        guard let decision = service.feature(flag.key, userID: id, attributes: attributes, profile: &profile) else {
          return nil
        }
        return BucketRow(
          id: id, experiment: flag.key, variation: decision.isEnabled ? "on" : "off", bucket: nil,
          reason: decision.source.map { "feature flag, decided by \($0)" } ?? "feature flag, no rule matched")
      }
      return (experiments + flags).map(BucketLine.experiment)
    }
  }
}
