import Lab
import Platforms
import ScenarioFormat
import Tallies

/// A scenario with its experiments and variants numbered once across versions
/// (`ExperimentOrder`), and what the device loop needs of it.
public struct SimulationPlan: Sendable {
  public let scenario: Scenario
  /// Every local experiment name of any version, in order of first appearance,
  /// then every remote experiment in order of addition, then every experiment
  /// of the hash-bucketed service in order of start.
  public let experimentNames: [String]
  /// How many of `experimentNames` are local.
  public let localExperimentCount: Int
  /// The remote experiments' numbers, after the local ones.
  public let remoteExperiments: Range<Int>
  /// The hash-bucketed service's experiments' numbers, after the remote ones.
  public let serviceExperiments: Range<Int>
  /// Every variant name of each experiment across versions, in order of first appearance.
  public let variantNames: [[String]]
  /// Every key each remote experiment declares on any day, in order of
  /// appearance, by remote experiment (`experimentNames[localExperimentCount + r]`).
  public let remoteKeys: [[String]]
  public let versions: [VersionPlan]
  /// Every key that two experiments share in some version, counting every key
  /// a remote experiment ever declares: where the assignments manager can meet
  /// a clash. Sorted by key, then by the experiments' names.
  public let sharedKeys: [SharedKey]
  /// Each metric's grid for exact sums, from the largest mean a device can
  /// have (`Metric.largestMean(in:)`): see `Moments`.
  public let metricStepExponents: [Int]

  /// The plug-in of the platform the service runs on; nil without a service.
  public let platform: (any Platform.Type)?

  /// - Parameter platforms: where the service's platform is found: the
  ///   registry the scenario was read with.
  public init(_ scenario: Scenario, platforms: PlatformRegistry = .standard) {
    self.scenario = scenario
    platform = scenario.service.map { service in
      guard let plugin = platforms.plugin(named: service.framework.name) else {
        preconditionFailure("no plug-in for the platform '\(service.framework.name)': simulate with the registry the scenario was read with")
      }
      return plugin
    }
    let order = ExperimentOrder(scenario)
    let experimentNames = order.experimentNames, variantNames = order.variantNames
    localExperimentCount = order.localExperimentCount
    remoteExperiments = order.remoteExperiments
    serviceExperiments = order.serviceExperiments
    self.experimentNames = experimentNames
    self.variantNames = variantNames
    let revisions = scenario.remote?.revisions ?? []
    let remoteKeys = experimentNames[remoteExperiments].map { name in
      revisions.reduce(into: [String]()) { keys, revision in
        let declared = (try? revision.configuration.declaredKeys(of: name)) ?? []
        keys += declared.filter { !keys.contains($0) }
      }
    }
    self.remoteKeys = remoteKeys
    metricStepExponents = scenario.metrics.map { Moments.stepExponent(forScale: $0.largestMean(in: scenario.population)) }
    let versions = scenario.versions.map { version in
      VersionPlan(version: version, experimentNames: experimentNames, variantNames: variantNames)
    }
    self.versions = versions
    var sharedKeys: [SharedKey] = []
    for version in versions {
      let ids = version.slots.map(\.experimentID) + Array(remoteExperiments)
      for pair in version.keySharing(remoteKeys: remoteKeys).pairs {
        let experiments = [ids[pair.first], ids[pair.second]].sorted()
        for key in pair.keys where !sharedKeys.contains(where: { $0.key == key && $0.experiments == experiments }) {
          sharedKeys.append(SharedKey(key: key, experiments: experiments))
        }
      }
    }
    self.sharedKeys = sharedKeys.sorted {
      ($0.key, $0.experiments.map { experimentNames[$0] }.sorted().joined(separator: "\n"))
        < ($1.key, $1.experiments.map { experimentNames[$0] }.sorted().joined(separator: "\n"))
    }
  }
}

/// A key two experiments share in some version of the plan.
public struct SharedKey: Hashable, Sendable {
  public let key: String
  /// The two experiments' numbers in the plan, ascending.
  public let experiments: [Int]
}

extension SimulationPlan {
  /// Whether experiment `experiment` runs on the remote service.
  public func isRemote(_ experiment: Int) -> Bool {
    remoteExperiments.contains(experiment)
  }

  /// Where experiment `experiment` is decided: "local", "remote", or the
  /// hash-bucketed service's framework ("optimizely", "growthbook").
  public func source(of experiment: Int) -> String {
    if isRemote(experiment) { return "remote" }
    if serviceExperiments.contains(experiment) { return scenario.service?.framework.name ?? "service" }
    return "local"
  }
}

/// One app version, its experiments numbered.
public struct VersionPlan: Sendable {
  public let version: AppVersion
  /// The experiments this version defines, in its order.
  public let slots: [ExperimentSlot]

  /// The version's experiments in the manager's merge order: the local
  /// source's, then every remote experiment with every key it ever declares.
  public func keySharing(remoteKeys: [[String]]) -> KeySharing {
    KeySharing(keys: slots.map(\.definition.keys) + remoteKeys)
  }

  init(version: AppVersion, experimentNames: [String], variantNames: [[String]]) {
    self.version = version
    slots = version.experiments.map { experiment in
      ExperimentSlot(experiment: experiment, id: experimentNames.firstIndex(of: experiment.name)!, variantNames: variantNames)
    }
  }
}

/// One experiment of one version, with the tables that translate between the
/// version's variant positions and the experiment's global variant numbers.
public struct ExperimentSlot: Sendable {
  public let definition: Experiment
  public let experimentID: Int
  /// For each global variant number, its position in this version, or -1.
  public let localOfGlobal: [Int]
  /// For each position in this version, the global variant number.
  public let globalOfLocal: [Int]

  init(experiment: Experiment, id: Int, variantNames: [[String]]) {
    definition = experiment
    experimentID = id
    globalOfLocal = experiment.variants.map { variantNames[id].firstIndex(of: $0.name)! }
    localOfGlobal = variantNames[id].map { experiment.variantIndex(named: $0) ?? -1 }
  }
}
