/// A scenario's experiments and variants numbered once across its versions,
/// its remote configuration and its hash-bucketed service: the order every
/// table, tally and report lists them in, whether the counts come from a
/// simulation or from an events table written by one.
///
/// Experiments are identified across versions by name and variants within an
/// experiment by name, in order of first appearance, because names are what
/// Lab persists on a device.
public struct ExperimentOrder: Hashable, Sendable {
  /// Every local experiment name of any version, in order of first appearance,
  /// then every remote experiment in order of addition, then every experiment
  /// of the hash-bucketed service in order of start.
  public let experimentNames: [String]
  /// Every variant name of each experiment across versions, in order of first appearance.
  public let variantNames: [[String]]
  /// How many of `experimentNames` are local.
  public let localExperimentCount: Int
  /// The remote experiments' numbers, after the local ones.
  public let remoteExperiments: Range<Int>
  /// The hash-bucketed service's experiments' numbers, after the remote ones.
  public let serviceExperiments: Range<Int>

  public init(_ scenario: Scenario) {
    self.init(versions: scenario.versions, remote: scenario.remote, service: scenario.service)
  }

  /// The order of a scenario's parts, before the scenario is whole (its reader checks names with it).
  init(versions: [AppVersion], remote: RemotePlan?, service: ServicePlan?) {
    var experimentNames: [String] = []
    var variantNames: [[String]] = []
    for experiment in versions.flatMap(\.experiments) {
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
    for change in remote?.changes ?? [] {
      guard case .add(let experiment, _) = change.action else { continue }
      if let id = experimentNames.firstIndex(of: experiment.name) {
        variantNames[id] += experiment.variants.map(\.name).filter { !variantNames[id].contains($0) }
      } else {
        experimentNames.append(experiment.name)
        variantNames.append(experiment.variants.map(\.name))
      }
    }
    remoteExperiments = localExperimentCount..<experimentNames.count
    for (name, variations) in service?.experimentVariations ?? [] {
      experimentNames.append(name)
      variantNames.append(variations)
    }
    serviceExperiments = remoteExperiments.upperBound..<experimentNames.count
    self.experimentNames = experimentNames
    self.variantNames = variantNames
  }
}
