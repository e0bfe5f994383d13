/// The fields each object of a scenario file may have: the reader rejects any
/// other, and a test holds docs/scenario.schema.json to the same lists.
enum ScenarioFields {
  static let scenario = [
    "$schema", "name", "description", "seed", "devices", "days", "naming", "versions", "population", "displayProbability",
    "displayMoment",
    "metrics", "ratios", "analysis", "remote", "service", "churn", "enrollment", "expect",
  ]
  static let version = [
    "version", "releaseDay", "adoption", "stabilizeOnLaunch", "experiments", "rollout", "requiredFromDay",
  ]
  static let adoption = ["meanDelayDays", "neverUpgradeShare", "automaticShare", "curve"]
  static let adoptionPoint = ["day", "share", "low", "high"]
  static let rollout = ["appStorePhasedRelease", "googlePlayStages"]
  static let phasedRelease = ["pauses"]
  static let dayRange = ["day", "days"]
  static let rolloutStage = ["day", "share", "halt"]
  static let experiment = ["name", "keys", "variants", "baseline", "tokenRange"]
  static let variant = ["name", "weight", "assignments"]
  static let population = ["segments", "installs", "weekdayFactors", "firstWeekday"]
  static let installs = ["existing", "daily", "campaigns"]
  static let campaign = ["day", "days", "daily"]
  static let segment = [
    "name", "share", "dailyLaunchProbability", "attributes", "activity", "launchesPerActiveDay", "inactivityHazard",
    "firstWeekInactivityHazard",
  ]
  static let activity = ["mean", "concentration"]
  static let novelty = ["initialLifts", "halfLifeDays"]
  static let metric = [
    "name", "kind", "baseline", "segmentBaselines", "lifts", "segmentLifts", "distribution", "sigma", "shape",
    "covariateCorrelation", "quantiles", "winsorize", "novelty",
  ]
  static let ratio = ["name", "numerator", "denominator"]
  static let analysis = [
    "alpha", "correction", "attribution", "dailyLooks", "minimumDetectableEffect", "power", "neverEnrolledAsBaseline",
    "liftInterval", "alwaysValidMixture", "engine", "engineSettings", "guardrails", "minimumDetectableDifference",
    "minimumDevicesPerVariant", "successMetrics", "deteriorationAlpha",
  ]
  static let remote = ["defaults", "fetch", "values", "customValues", "debugValues", "changes"]
  static let localValues = ["share", "values"]
  static let fetch = ["failureRate", "medianLatencySeconds", "latencySigma", "timeoutSeconds", "segments"]
  static let segmentFetch = ["failureRate", "medianLatencySeconds"]
  static let change = ["day", "add", "remove", "setPercentages", "setValues", "override", "conclude", "declareKeys"]
  static let remoteExperiment = ["name", "keys", "variants", "audience"]
  static let remoteVariant = ["name", "percentage", "values"]
  static let audience = ["tokenRange", "attributes"]
  static let setPercentages = ["experiment", "percentages"]
  static let setValues = ["experiment", "variant", "values"]
  static let override = ["experiment", "keys"]
  static let conclude = ["experiment", "winner"]
  static let declareKeys = ["experiment", "value"]
  static let churn = ["experiment", "variant", "dailyProbability", "whileValues"]
  static let service = ["framework", "sticky", "reinstallShare", "fetch", "accessBeforeDownload", "changes", "flags"]
  static let flag = ["name", "rollout"]
  static let flagStep = ["day", "share"]
  static let serviceChange = [
    "day", "start", "setTraffic", "setWeights", "addVariation", "removeVariation", "setAudience", "pause", "resume",
    "conclude", "newBucketVersion",
  ]
  static let serviceExperiment = ["name", "variations", "traffic", "audience"]
  static let serviceVariation = ["name", "weight"]
  static let serviceAudience = ["attributes", "minimumAppVersion"]
  static let setTraffic = ["experiment", "traffic"]
  static let setWeights = ["experiment", "weights"]
  static let addVariation = ["experiment", "name", "weight"]
  static let removeVariation = ["experiment", "variation"]
  static let setAudience = ["experiment", "audience"]
  static let experimentOnly = ["experiment"]
  static let enrollmentRule = ["policy", "checkProbability", "precondition", "handshake"]
  static let enrollmentCondition = ["events", "eventsPerLaunch", "launchChance", "lapseChance"]
  static let handshake = [
    "remoteConfigWaiting", "groupDefinitionWaiting", "configurationSeconds", "groupSeconds", "offerSeconds",
    "latencySigma", "backgroundChance", "applyChance", "emptyConfigurationChance", "refusalChance", "userChangeChance",
    "waitsSet", "sharedDevices", "segments",
  ]
  static let sharedDevices = ["share", "switchChance"]
  static let expectation = ["that", "experiment", "version", "key", "rule", "atMost", "atLeast", "fires"]
  static let segmentHandshake = ["backgroundChance", "configurationSeconds"]

  /// Each list under the name of its definition in the JSON Schema.
  static let byDefinition: [String: [String]] = [
    "scenario": scenario, "version": version, "adoption": adoption, "experiment": experiment, "variant": variant,
    "population": population, "installs": installs, "activity": activity, "adoptionPoint": adoptionPoint, "rollout": rollout,
    "phasedRelease": phasedRelease, "dayRange": dayRange, "rolloutStage": rolloutStage,
    "campaign": campaign, "segment": segment, "metric": metric, "analysis": analysis, "remote": remote,
    "fetch": fetch, "segmentFetch": segmentFetch, "change": change, "remoteExperiment": remoteExperiment,
    "remoteVariant": remoteVariant, "audience": audience, "setPercentages": setPercentages, "setValues": setValues,
    "override": override, "conclude": conclude, "declareKeys": declareKeys, "churn": churn, "service": service,
    "serviceChange": serviceChange, "serviceExperiment": serviceExperiment, "serviceVariation": serviceVariation,
    "serviceAudience": serviceAudience, "setTraffic": setTraffic, "setWeights": setWeights, "addVariation": addVariation,
    "removeVariation": removeVariation, "setAudience": setAudience, "experimentOnly": experimentOnly,
    "enrollmentRule": enrollmentRule, "enrollmentCondition": enrollmentCondition, "handshake": handshake,
    "segmentHandshake": segmentHandshake, "localValues": localValues, "flag": flag, "flagStep": flagStep,
    "sharedDevices": sharedDevices, "expectation": expectation,
  ]
}
