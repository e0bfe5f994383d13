import Lab
import ScenarioFormat
import Simulation

extension ResultsDocument {
  /// The document for a run: the first replication's tallies, described with
  /// the scenario's names.
  ///
  /// - Parameter replications: every replication's tally, in order; the
  ///   experiments describe the first.
  public init(plan: SimulationPlan, replications: [RunTally]) {
    let scenario = plan.scenario
    let tally = replications[0]
    self.init(
      scenario: scenario.name, seed: scenario.seed, devices: scenario.devices, days: scenario.days,
      replications: replications.count, launches: tally.launches, stabilizedDevices: tally.stabilizedDevices,
      experiments: plan.experimentNames.indices.map { ExperimentResult(plan: plan, experiment: $0, tally: tally) },
      conflicts: Self.conflicts(plan: plan, tally: tally))
  }

  /// Every pair of experiments that share a key in some version, one entry per
  /// shared key, with the devices on which both were active at once.
  private static func conflicts(plan: SimulationPlan, tally: RunTally) -> [ConflictResult] {
    let count = plan.experimentNames.count
    var keys: [Int: Set<String>] = [:]
    for version in plan.versions {
      for pair in KeySharing(version.version.experiments).pairs {
        let first = version.slots[pair.first].experimentID, second = version.slots[pair.second].experimentID
        keys[min(first, second) * count + max(first, second), default: []].formUnion(pair.keys)
      }
    }
    return keys.keys.sorted().flatMap { index in
      let names = [plan.experimentNames[index / count], plan.experimentNames[index % count]].sorted()
      return keys[index]!.sorted().map {
        ConflictResult(key: $0, experiments: names, devices: tally.conflictDevices[index])
      }
    }.sorted { ($0.key, $0.experiments.joined(separator: "\n")) < ($1.key, $1.experiments.joined(separator: "\n")) }
  }
}

extension ExperimentResult {
  init(plan: SimulationPlan, experiment: Int, tally: RunTally) {
    let name = plan.experimentNames[experiment]
    let definitions = plan.scenario.versions.compactMap { $0.experiments.first { $0.name == name } }
    let experimentTally = tally.experiments[experiment]
    let attribution = plan.scenario.analysis.attribution
    let metrics = plan.scenario.metrics
    let variantNames = plan.variantNames[experiment]
    let versions = plan.versions.count
    self.init(
      name: name, source: "local", baseline: definitions.last!.baseline,
      variants: variantNames.enumerated().map { index, variantName in
        let variantTally = experimentTally.variants[index]
        let counted = attribution == .firstExposure ? variantTally.firstExposure : variantTally.uncontaminated
        return VariantResult(
          name: variantName,
          weight: definitions.last { $0.variantIndex(named: variantName) != nil }!.variants.first { $0.name == variantName }!.weight,
          exposed: variantTally.exposed, contaminated: variantTally.contaminated,
          metrics: zip(metrics, counted).map { MetricSummary(metric: $0, tally: $1) })
      },
      transitions: (0..<(versions * versions)).compactMap { index in
        let devices = tally.upgrades[index]
        guard devices > 0 else { return nil }
        let counts = experimentTally.transitions[index]
        return TransitionResult(
          fromVersion: plan.scenario.versions[index / versions].version,
          toVersion: plan.scenario.versions[index % versions].version, devices: devices, kept: counts.kept,
          reassigned: counts.reassigned, deactivated: counts.deactivated, activated: counts.activated)
      },
      dailyExposures: variantNames.indices.map { variant in
        (0..<plan.scenario.days).map { experimentTally.dailyExposures[$0 * variantNames.count + variant] }
      })
  }
}

extension MetricSummary {
  init(metric: Metric, tally: MetricTally) {
    let isConversion = metric.kind == .conversion
    self.init(
      name: metric.name, isConversion: isConversion, n: tally.outcomes.count,
      conversions: isConversion ? tally.conversions : nil,
      mean: tally.outcomes.mean, variance: tally.outcomes.sampleVariance,
      trueMean: tally.trueMean)
  }
}
