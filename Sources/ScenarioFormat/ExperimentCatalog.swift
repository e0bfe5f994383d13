import Lab

/// Every experiment and variant name the scenario defines, in its versions, on
/// its remote service or on its hash-bucketed service, so that behaviour can
/// only refer to names that exist.
struct ExperimentCatalog {
  private var variants: [String: [String]] = [:]

  init(versions: [AppVersion], remote: RemotePlan?, service: ServicePlan?) {
    let order = ExperimentOrder(versions: versions, remote: remote, service: service)
    for (experiment, names) in zip(order.experimentNames, order.variantNames) {
      for variant in names where !(variants[experiment]?.contains(variant) ?? false) {
        variants[experiment, default: []].append(variant)
      }
    }
  }

  func requireExperiment(_ name: String, at node: JSONNode) throws(ScenarioError) {
    guard variants[name] != nil else {
      throw node.error("'\(name)' is not an experiment of the scenario (experiments: \(variants.keys.sorted().joined(separator: ", ")))")
    }
  }

  func requireVariant(_ name: String, of experiment: String, at node: JSONNode) throws(ScenarioError) {
    guard let known = variants[experiment], known.contains(name) else {
      throw node.error("'\(name)' is not a variant of \(experiment) (variants: \((variants[experiment] ?? []).joined(separator: ", ")))")
    }
  }
}
