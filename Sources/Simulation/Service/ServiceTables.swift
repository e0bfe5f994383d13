import Bucketing
import Foundation
import JSONDocument
import ScenarioFormat

/// The hash-bucketed service's timeline as the device loop reads it: every
/// revision of the dashboard's configuration built once in the vendor's own
/// form (an Optimizely datafile, a GrowthBook features payload, LaunchDarkly
/// flag data, Statsig specs, an Eppo flag configuration, Unleash features),
/// so that the Bucketing library decides every launch as the vendor's SDK would.
struct ServiceTables {
  let framework: ServicePlan.Framework
  /// Service experiments, numbered from 0; `globalID[s]` is the plan's number.
  let count: Int
  let globalID: [Int]
  let names: [String]
  let sticky: Bool
  let reinstallShare: Double
  /// `ServicePlan.accessBeforeDownload`.
  let accessBeforeDownload: Double
  /// Optimizely's feature flags, by name (`ServicePlan.flags`).
  let flagNames: [String]
  /// Whether devices launch against the service: it has experiments or flags.
  var isUsed: Bool { count > 0 || !flagNames.isEmpty }
  let fetch: FetchModel
  /// The revision in force on each day, -1 before the first change.
  let revisionOfDay: [Int]
  let revisionDays: [Int]
  /// By revision: the configuration, in the framework's form.
  let optimizely: [OptimizelyDecisionService]
  let growthBook: [GrowthBookPayload]
  let launchDarkly: [LaunchDarklyEvaluator]
  let statsig: [StatsigEvaluator]
  let eppo: [EppoEvaluator]
  let unleash: [UnleashEvaluator]
  /// By service experiment: the plan's variant number of each variation name.
  let variantIDs: [[String: Int]]
  /// By revision, service experiment and plan variant: the share of the
  /// bucketed users the revision sends to the variant, for the split check.
  let shares: [[[Double]]]
  /// By revision and service experiment: whether the revision's changes are about it.
  let touches: [[Bool]]
  /// The revision each app version bundles: the one in force on its release day.
  let bundledRevision: [Int]
  /// By segment and version: the attributes a device sends.
  let attributes: [[[String: AttributeValue]]]
  /// The same, as the JSON the other platforms' contexts are built from.
  let jsonAttributes: [[[String: JSONValue]]]
  /// By segment and version, the platform's context without the device's id,
  /// built once: a launch only sets the id.
  let launchDarklyContexts: [[LaunchDarklyContext]]
  let statsigUsers: [[StatsigUser]]
  let unleashContexts: [[UnleashContext]]
  let segmentNames: [String]

  /// The bundle identifier the simulated app sends.
  static let bundleIdentifier = "com.example.labbench"
  /// The clock the platforms' time conditions would read: fixed, so that a
  /// run is the same whenever it is made (the bench's configurations set no times).
  static let clock = Date(timeIntervalSince1970: 0)

  init(plan: SimulationPlan) {
    let scenario = plan.scenario
    let service = scenario.service ?? ServicePlan(framework: .optimizely, sticky: false, reinstallShare: 0, fetch: .reliable, changes: [])
    framework = service.framework
    globalID = Array(plan.serviceExperiments)
    count = globalID.count
    names = globalID.map { plan.experimentNames[$0] }
    sticky = service.sticky
    reinstallShare = service.reinstallShare
    accessBeforeDownload = service.accessBeforeDownload
    flagNames = service.flags.map(\.name)
    fetch = service.fetch
    let revisions = service.revisions
    var revisionOfDay = Array(repeating: -1, count: scenario.days)
    for (index, revision) in revisions.enumerated() where revision.day < scenario.days {
      for day in revision.day..<scenario.days { revisionOfDay[day] = index }
    }
    self.revisionOfDay = revisionOfDay
    revisionDays = revisions.map(\.day)
    let names = self.names
    variantIDs = globalID.map { id in Dictionary(uniqueKeysWithValues: plan.variantNames[id].enumerated().map { ($1, $0) }) }
    let variantIDs = self.variantIDs
    optimizely = service.framework == .optimizely
      ? revisions.map { revision in
        OptimizelyDecisionService(
          datafile: Self.datafile(
            revision.experiments, names: names, variantIDs: variantIDs, flags: service.flags.map(\.name),
            shares: revision.flags))
      }
      : []
    growthBook = service.framework == .growthbook ? revisions.map { Self.payload($0.experiments) } : []
    launchDarkly = service.framework == .launchdarkly
      ? revisions.map { LaunchDarklyEvaluator(data: ServiceConfiguration.launchDarkly($0.experiments)) } : []
    statsig = service.framework == .statsig
      ? revisions.map { StatsigEvaluator(specs: ServiceConfiguration.statsig($0.experiments), now: Self.clock) } : []
    eppo = service.framework == .eppo ? revisions.map { EppoEvaluator(configuration: ServiceConfiguration.eppo($0.experiments)) } : []
    unleash = service.framework == .unleash
      ? revisions.map { UnleashEvaluator(features: ServiceConfiguration.unleash($0.experiments)) } : []
    let globalID = self.globalID
    shares = revisions.map { revision in
      let running = Dictionary(revision.experiments.map { ($0.name, $0) }) { first, _ in first }
      return zip(globalID, names).map { id, name in
        let variants = plan.variantNames[id]
        guard let experiment = running[name] else {
          return Array(repeating: 0, count: variants.count)
        }
        if let winner = experiment.winner { return variants.map { $0 == winner ? 1 : 0 } }
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        return variants.map { variant in (experiment.variations.first { $0.name == variant }?.weight ?? 0) / total }
      }
    }
    var touchedOnDay: [Int: Set<String>] = [:]
    for change in service.changes { touchedOnDay[change.day, default: []].insert(change.experiment) }
    touches = revisions.map { revision in
      names.map { touchedOnDay[revision.day]?.contains($0) ?? false }
    }
    bundledRevision = scenario.versions.map { $0.releaseDay < scenario.days ? revisionOfDay[$0.releaseDay] : -1 }
    segmentNames = scenario.population.segments.map(\.name)
    attributes = scenario.population.segments.map { segment in
      scenario.versions.map { version in
        var attributes = AppAttributes(bundleIdentifier: Self.bundleIdentifier, shortVersion: version.version).attributes
        for (name, value) in segment.attributes { attributes[name] = .string(value) }
        return attributes
      }
    }
    let jsonAttributes = attributes.map { $0.map { $0.mapValues(Self.json) } }
    self.jsonAttributes = jsonAttributes
    // Only the running framework's contexts are built.
    launchDarklyContexts = service.framework != .launchdarkly ? [] : jsonAttributes.map { $0.map { LaunchDarklyContext(key: "", attributes: $0) } }
    statsigUsers = service.framework != .statsig ? [] : jsonAttributes.map {
      $0.map { attributes in
        var custom = attributes
        let appVersion = custom.removeValue(forKey: "app_version")
        return StatsigUser(userID: "", attributes: ["appVersion": appVersion ?? .null, "custom": .object(custom)])
      }
    }
    unleashContexts = service.framework != .unleash ? [] : jsonAttributes.map { $0.map { UnleashContext(userID: "", attributes: $0, now: Self.clock) } }
  }

  /// An attribute as JSON; the app's version parts are whole numbers.
  static func json(_ value: AttributeValue) -> JSONValue {
    switch value {
    case .null: .null
    case .bool(let flag): .bool(flag)
    case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .integer(Int64(number)) : .number(number)
    case .string(let text): .string(text)
    case .array(let values): .array(values.map(json))
    case .object(let members): .object(members.mapValues(json))
    }
  }

  // MARK: - Optimizely

  /// A datafile for one revision: experiment ids from the plan's order,
  /// traffic laid out by `OptimizelyBucketer.allocation`, the audience as
  /// "and" of an "or" per attribute and a semver condition on `app_version`.
  /// A concluded experiment sends all its traffic to the winner; a paused
  /// one is not running.
  static func datafile(
    _ experiments: [ServiceExperiment], names: [String], variantIDs: [[String: Int]], flags: [String] = [],
    shares: [String: Double] = [:]
  ) -> OptimizelyDatafile {
    var audiences: [OptimizelyDatafile.Audience] = []
    let indexOfName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    let converted = experiments.map { experiment -> OptimizelyDatafile.Experiment in
      let s = indexOfName[experiment.name]!
      let id = String(1000 + s)
      let variations = experiment.variations.map { variation in
        OptimizelyDatafile.Variation(id: "\(id)-\(variantIDs[s][variation.name]!)", key: variation.name)
      }
      let weights = experiment.variations.map { experiment.winner == nil ? $0.weight : ($0.name == experiment.winner ? 1 : 0) }
      let allocation = OptimizelyBucketer.allocation(
        variationIDs: variations.map(\.id), weights: weights, traffic: experiment.winner == nil ? experiment.traffic : 1)
      var audienceConditions: AttributeValue?
      if let conditions = optimizelyConditions(experiment.audience) {
        audiences.append(OptimizelyDatafile.Audience(id: "a\(id)", conditions: conditions))
        audienceConditions = .array([.string("or"), .string("a\(id)")])
      }
      return OptimizelyDatafile.Experiment(
        id: id, key: experiment.name, status: experiment.status == .paused ? "Paused" : "Running", variations: variations,
        trafficAllocation: allocation, audienceConditions: audienceConditions)
    }
    // Each flag the revision has: a rollout whose "Everyone Else" rule turns it on for its share of
    // users; the rule keeps its id, so a wider share keeps everyone it had.
    var featureFlags: [OptimizelyDatafile.FeatureFlag] = [], rollouts: [OptimizelyDatafile.Rollout] = []
    for (index, flag) in flags.enumerated() {
      guard let share = shares[flag] else { continue }
      let ruleID = String(5000 + index)
      let on = OptimizelyDatafile.Variation(id: "\(ruleID)-on", key: "on", featureEnabled: true)
      let rule = OptimizelyDatafile.Experiment(
        id: ruleID, key: "\(flag)-everyone-else", status: "Running", variations: [on],
        trafficAllocation: [.init(entityId: on.id, endOfRange: Int((share * 10_000).rounded()))])
      rollouts.append(OptimizelyDatafile.Rollout(id: "r\(ruleID)", experiments: [rule]))
      featureFlags.append(OptimizelyDatafile.FeatureFlag(id: "f\(ruleID)", key: flag, rolloutId: "r\(ruleID)"))
    }
    return OptimizelyDatafile(experiments: converted, audiences: audiences, featureFlags: featureFlags, rollouts: rollouts)
  }

  private static func optimizelyConditions(_ audience: ServiceAudience) -> AttributeValue? {
    func leaf(_ name: String, _ match: String, _ value: String) -> AttributeValue {
      .object(["name": .string(name), "type": .string("custom_attribute"), "match": .string(match), "value": .string(value)])
    }
    var parts: [AttributeValue] = audience.attributes.keys.sorted().map { name in
      .array([.string("or")] + audience.attributes[name]!.map { leaf(name, "exact", $0) })
    }
    if let minimum = audience.minimumAppVersion { parts.append(leaf("app_version", "semver_ge", minimum)) }
    return parts.isEmpty ? nil : .array([.string("and")] + parts)
  }

  // MARK: - GrowthBook

  /// A features payload for one revision: a feature per experiment, whose
  /// values are the variation names. A running experiment is an experiment
  /// rule (weights normalized, coverage the traffic, hash version 2, the
  /// audience as its condition); a concluded one a force rule serving the
  /// winner to its audience; a paused one has no rule.
  static func payload(_ experiments: [ServiceExperiment]) -> GrowthBookPayload {
    var features: [String: GrowthBookPayload.Feature] = [:]
    for experiment in experiments {
      let condition = growthBookCondition(experiment.audience)
      var rules: [GrowthBookPayload.Rule] = []
      if let winner = experiment.winner {
        rules.append(.init(
          condition: condition, force: .string(winner), coverage: nil, experiment: nil, hashAttribute: "id", hashVersion: 2,
          seed: nil))
      } else if experiment.status == .running {
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        rules.append(.init(
          condition: condition, force: nil, coverage: experiment.traffic,
          experiment: GrowthBookExperiment(
            key: experiment.name, variations: experiment.variations.map { .string($0.name) },
            weights: experiment.variations.map { $0.weight / total }, coverage: experiment.traffic, condition: condition,
            hashVersion: 2, bucketVersion: experiment.bucketVersion, variationKeys: experiment.variations.map(\.name)),
          hashAttribute: "id", hashVersion: 2, seed: nil))
      }
      features[experiment.name] = .init(defaultValue: .null, rules: rules)
    }
    return GrowthBookPayload(features: features)
  }

  private static func growthBookCondition(_ audience: ServiceAudience) -> AttributeValue? {
    var members: [String: AttributeValue] = [:]
    for (name, values) in audience.attributes { members[name] = .object(["$in": .array(values.map(AttributeValue.string))]) }
    if let minimum = audience.minimumAppVersion { members["app_version"] = .object(["$vgte": .string(minimum)]) }
    return members.isEmpty ? nil : .object(members)
  }
}
