/// The fields each object of a scenario file may have: the reader rejects any
/// other, and a test holds docs/scenario.schema.json to the same lists.
enum ScenarioFields {
  static let scenario = [
    "name", "description", "seed", "devices", "days", "naming", "versions", "population", "displayProbability",
    "metrics", "analysis",
  ]
  static let version = ["version", "releaseDay", "adoption", "stabilizeOnLaunch", "experiments"]
  static let adoption = ["meanDelayDays", "neverUpgradeShare"]
  static let experiment = ["name", "keys", "variants", "baseline", "tokenRange"]
  static let variant = ["name", "weight", "assignments"]
  static let population = ["segments"]
  static let segment = ["name", "share", "dailyLaunchProbability", "attributes"]
  static let metric = [
    "name", "kind", "baseline", "segmentBaselines", "lifts", "segmentLifts", "distribution", "sigma", "shape",
  ]
  static let analysis = ["alpha", "correction", "attribution", "dailyLooks", "minimumDetectableEffect", "power"]

  /// Each list under the name of its definition in the JSON Schema.
  static let byDefinition: [String: [String]] = [
    "scenario": scenario, "version": version, "adoption": adoption, "experiment": experiment, "variant": variant,
    "population": population, "segment": segment, "metric": metric, "analysis": analysis,
  ]
}
