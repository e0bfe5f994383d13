import Lab
import ScenarioFormat

/// A scenario with its experiments and variants numbered once across versions.
///
/// Experiments are identified across versions by name and variants within an
/// experiment by name, in order of first appearance, because names are what Lab
/// persists on a device.
public struct SimulationPlan: Sendable {
  public let scenario: Scenario
  /// Every local experiment name of any version, in order of first appearance,
  /// then every remote experiment in order of addition.
  public let experimentNames: [String]
  /// How many of `experimentNames` are local; the rest are remote.
  public let localExperimentCount: Int
  /// Every variant name of each experiment across versions, in order of first appearance.
  public let variantNames: [[String]]
  public let versions: [VersionPlan]

  public init(_ scenario: Scenario) {
    self.scenario = scenario
    var experimentNames: [String] = []
    var variantNames: [[String]] = []
    for experiment in scenario.versions.flatMap(\.experiments) {
      let id = experimentNames.firstIndex(of: experiment.name) ?? {
        experimentNames.append(experiment.name)
        variantNames.append([])
        return experimentNames.count - 1
      }()
      for variant in experiment.variants where !variantNames[id].contains(variant.name) {
        variantNames[id].append(variant.name)
      }
    }
    localExperimentCount = experimentNames.count
    for change in scenario.remote?.changes ?? [] {
      guard case .add(let experiment, _) = change.action else { continue }
      if let id = experimentNames.firstIndex(of: experiment.name) {
        variantNames[id] += experiment.variants.map(\.name).filter { !variantNames[id].contains($0) }
      } else {
        experimentNames.append(experiment.name)
        variantNames.append(experiment.variants.map(\.name))
      }
    }
    self.experimentNames = experimentNames
    self.variantNames = variantNames
    versions = scenario.versions.map { version in
      VersionPlan(version: version, experimentNames: experimentNames, variantNames: variantNames)
    }
  }
}

extension SimulationPlan {
  /// Whether experiment `experiment` runs on the remote service.
  public func isRemote(_ experiment: Int) -> Bool {
    experiment >= localExperimentCount
  }
}

/// One app version, its experiments numbered.
public struct VersionPlan: Sendable {
  public let version: AppVersion
  /// The experiments this version defines, in its order.
  public let slots: [ExperimentSlot]

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
