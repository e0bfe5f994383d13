import Lab

/// Every experiment and variant name the scenario's versions define, so that
/// behaviour can only refer to names that exist.
struct ExperimentCatalog {
  private var variants: [String: [String]] = [:]

  init(versions: [AppVersion]) {
    for experiment in versions.flatMap(\.experiments) {
      for variant in experiment.variants where !(variants[experiment.name]?.contains(variant.name) ?? false) {
        variants[experiment.name, default: []].append(variant.name)
      }
    }
  }

  func requireExperiment(_ name: String, at node: JSONNode) throws(ScenarioError) {
    guard variants[name] != nil else {
      throw node.error("'\(name)' is not an experiment of any version (experiments: \(variants.keys.sorted().joined(separator: ", ")))")
    }
  }

  func requireVariant(_ name: String, of experiment: String, at node: JSONNode) throws(ScenarioError) {
    guard let known = variants[experiment], known.contains(name) else {
      throw node.error("'\(name)' is not a variant of \(experiment) in any version (variants: \((variants[experiment] ?? []).joined(separator: ", ")))")
    }
  }
}
