import Foundation
import Platforms
import ScenarioFormat
import Testing

/// Records an issue unless reading `text` fails with exactly `expected`.
func expectScenarioError(_ text: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
  do {
    _ = try parse(text)
    Issue.record("expected the error \(expected)", sourceLocation: sourceLocation)
  } catch {
    #expect("\(error)" == expected, sourceLocation: sourceLocation)
  }
}

/// Every bad input docs/scenarios.md lists, with the exact message it documents.
@Suite struct ScenarioErrorTests {
  private func expectError(_ text: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectScenarioError(text, expected, sourceLocation: sourceLocation)
  }

  private func experiment(replacing old: String, with new: String) -> String {
    minimalScenario(experiments: defaultExperiment.replacingOccurrences(of: old, with: new))
  }

  @Test func aZeroWeight() {
    expectError(
      experiment(replacing: #""weight": 2"#, with: #""weight": 0"#),
      "versions[0].experiments[0].variants[0].weight: must be greater than 0: a plan stops showing a variant by deleting it "
        + "from the version (docs/rules/DeletedVariant.md)")
  }

  @Test func aWeightAboveItsRange() {
    expectError(
      experiment(replacing: #""weight": 2"#, with: #""weight": 9223372036854775807"#),
      "versions[0].experiments[0].variants[0].weight: must be at most 1000000000: use smaller weights in the same proportions")
  }

  @Test func aMisspeltField() {
    expectError(
      experiment(replacing: #""weight": 2"#, with: #""wieght": 2"#),
      "versions[0].experiments[0].variants[0].wieght: is not a known field; did you mean 'weight'? (known: name, weight, assignments)")
  }

  @Test func aMissingRequiredField() {
    expectError(
      minimalScenario().replacingOccurrences(of: #""devices": 100, "#, with: ""), "devices: is required")
  }

  @Test func aValueOfTheWrongType() {
    expectError(
      minimalScenario().replacingOccurrences(of: #""days": 30"#, with: #""days": "30""#),
      "days: must be a whole number, not a string")
  }

  @Test func aVariantMissingAKey() {
    expectError(
      experiment(replacing: #"{ "color": "red" }"#, with: "{ }"),
      "versions[0].experiments[0].variants[1].assignments: variant Red must supply a value for key 'color'")
  }

  @Test func anAssignmentThatIsNeitherStringNorNumber() {
    expectError(
      experiment(replacing: #""color": "red""#, with: #""color": true"#),
      "versions[0].experiments[0].variants[1].assignments.color: must be a string or a number, not a boolean")
  }

  @Test func anEmptyTokenRange() {
    expectError(
      experiment(replacing: "[0, 0.5]", with: "[0.5, 0.5]"),
      "versions[0].experiments[0].tokenRange: [0.5, 0.5] is empty: the lower bound must be less than the upper bound")
  }

  @Test func aTokenRangeOutsideTheUnitInterval() {
    expectError(
      experiment(replacing: "[0, 0.5]", with: "[0.5, 2]"),
      "versions[0].experiments[0].tokenRange: [0.5, 2.0] must lie within [0, 1]")
  }

  @Test func anUnknownBaseline() {
    expectError(
      experiment(replacing: #""keys""#, with: #""baseline": "Green", "keys""#),
      "versions[0].experiments[0].baseline: 'Green' must be the name of one of the variants")
  }

  @Test func aNameAgainstTheConventions() {
    expectError(
      experiment(replacing: #""name": "Theme""#, with: #""name": "theme""#),
      "versions[0].experiments[0].name: experiment 'theme' should be UpperCamelCase, e.g. 'Theme', or set \"naming\": \"lenient\"")
  }

  @Test func versionsOutOfOrder() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 },
                      { "version": "2.0", "releaseDay": 0, "adoption": { "meanDelayDays": 3 } } ] }
      """
    expectError(text, "versions[1].releaseDay: must be later than 1.0's release day 0: list versions in release order")
  }

  @Test func aLaterVersionWithoutAdoption() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 }, { "version": "2.0", "releaseDay": 5 } ] }
      """
    expectError(
      text, #"versions[1].adoption: is required after the first version, e.g. {"meanDelayDays": 7, "neverUpgradeShare": 0.1}"#)
  }

  @Test func aReleaseAfterTheRunEnds() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 },
                      { "version": "2.0", "releaseDay": 30, "adoption": { "meanDelayDays": 3 } } ] }
      """
    expectError(text, "versions[1].releaseDay: must be before the last day: the run lasts 30 days")
  }

  @Test func aNameThatCannotNameAFolder() {
    expectError(
      minimalScenario().replacingOccurrences(of: #""tiny""#, with: #""../up""#),
      #"name: must be letters, digits, '-' or '_' (it names the report's folder), e.g. "upgrade""#)
  }

  @Test func textThatIsNotJSON() {
    expectError("{ \"name\": ", "$: is not valid JSON at line 1, column 11: the document ends where a value was expected")
  }

  @Test func aFileThatDoesNotExist() {
    #expect(throws: ScenarioError(path: "/nonexistent/x.json", message: "cannot be read: check that the file exists and is readable")) {
      try Scenario.load(path: "/nonexistent/x.json")
    }
  }

  /// A typo meets its fix: the nearest scenario file beside the path, else the first few there.
  @Test func aFileThatDoesNotExistNamesTheNearbyOnes() throws {
    let folder = repositoryRoot.appendingPathComponent("scenarios").path
    #expect(throws: ScenarioError(
      path: "\(folder)/upgrde.json",
      message: "cannot be read: check that the file exists and is readable; did you mean '\(folder)/upgrade.json'?")) {
      try Scenario.load(path: "\(folder)/upgrde.json")
    }
    let other = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
    for name in ["a.json", "b.json", "notes.txt"] { try Data("{}".utf8).write(to: other.appendingPathComponent(name)) }
    #expect(throws: ScenarioError(
      path: "\(other.path)/release-plan.json",
      message: "cannot be read: check that the file exists and is readable (\(other.path) has \(other.path)/a.json, \(other.path)/b.json)")) {
      try Scenario.load(path: "\(other.path)/release-plan.json")
    }
  }

  /// Other platforms' words for a field get its name.
  @Test func anotherPlatformsWordForAField() {
    expectError(
      experiment(replacing: #""variants""#, with: #""variations""#),
      "versions[0].experiments[0].variations: is not a known field; did you mean 'variants'? (known: name, keys, variants, baseline, tokenRange)")
    expectError(
      minimalScenario(extra: #", "metrics": [ { "name": "x", "type": "conversion", "baseline": 0.1 } ]"#),
      "metrics[0].type: is not a known field; did you mean 'kind'? (known: name, kind, baseline, segmentBaselines, lifts, "
        + "segmentLifts, distribution, sigma, shape, covariateCorrelation, quantiles, winsorize, novelty)")
  }
}

/// Bad behaviour sections, with the messages docs/scenarios.md documents.
@Suite struct BehaviourErrorTests {
  private func expectError(_ extra: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectScenarioError(minimalScenario(extra: extra), expected, sourceLocation: sourceLocation)
  }

  @Test func sharesThatDoNotSumToOne() {
    expectError(
      #", "population": { "segments": [ { "name": "ios", "share": 0.5 }, { "name": "android", "share": 0.4 } ] }"#,
      "population.segments: shares must sum to 1, not 0.9")
  }

  @Test func aLiftForAnExperimentNoVersionHas() {
    expectError(
      #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": { "Them": { "Red": 0.1 } } } ]"#,
      "metrics[0].lifts.Them: 'Them' is not an experiment of the scenario (experiments: Theme)")
  }

  @Test func aLiftForAVariantTheExperimentNeverHad() {
    expectError(
      #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": { "Theme": { "Green": 0.1 } } } ]"#,
      "metrics[0].lifts.Theme.Green: 'Green' is not a variant of Theme (variants: Blue, Red)")
  }

  @Test func aLiftThatRemovesTheOutcome() {
    expectError(
      #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": { "Theme": { "Red": -1 } } } ]"#,
      "metrics[0].lifts.Theme.Red: must be greater than -1: a lift of -1 removes the outcome entirely")
  }

  @Test func aConversionRateAboveOne() {
    expectError(
      #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 1.5 } ]"#,
      "metrics[0].baseline: must lie between 0 and 1")
  }

  /// Exact sums hold any amount from 1e-12 to 1e15 at any population: outside
  /// that, the reader says so rather than letting a run trap or lose the amount.
  @Test func anAmountBeyondTheExactSums() {
    for baseline in ["2e15", "1e-13", "0"] {
      expectError(
        #", "metrics": [ { "name": "revenue", "kind": "continuous", "distribution": "lognormal", "sigma": 1, "baseline": \#(baseline) } ]"#,
        "metrics[0].baseline: must lie between 1e-12 and 1e15: it is the mean amount per device (scale the unit to fit)")
    }
  }

  @Test func liftsThatPushAnAmountBeyondTheExactSums() {
    expectError(
      #", "metrics": [ { "name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 2, "baseline": 1e15, "lifts": { "Theme": { "Red": 1 } } } ]"#,
      "metrics[0]: a device shown every experiment's best variant would have a mean of 2e+15, above the largest accepted "
        + "1e15: lower the baseline or the lifts (the mean is the baseline times 1 + the largest lift of each experiment)")
  }

  @Test func aContinuousMetricWithoutItsSpread() {
    expectError(
      #", "metrics": [ { "name": "revenue", "kind": "continuous", "distribution": "lognormal", "baseline": 2 } ]"#,
      "metrics[0].sigma: is required")
  }

  @Test func aBaselineForASegmentThePopulationLacks() {
    expectError(
      #", "metrics": [ { "name": "subscribed", "kind": "conversion", "baseline": 0.1, "segmentBaselines": { "ios": 0.2 } } ]"#,
      "metrics[0].segmentBaselines.ios: 'ios' is not a segment of the population (segments: everyone)")
  }

  @Test func anUnknownCorrection() {
    expectError(
      #", "analysis": { "correction": "bonferroni" }"#,
      #"analysis.correction: must be one of "none", "holm", "benjamini-hochberg""#)
  }

  @Test func anUnknownLiftInterval() {
    expectError(
      #", "analysis": { "liftInterval": "fieller" }"#,
      #"analysis.liftInterval: must be one of "ratio", "delta""#)
  }

  @Test func anUnknownEngine() {
    expectError(
      #", "analysis": { "engine": "growthbook" }"#,
      #"analysis.engine: must be one of "bench", "gbstats-bayesian", "gbstats-frequentist", "gbstats-sequential", "confidence", "optimizely-stats-engine", "eppo-sequential""#)
  }

  @Test func anEngineSettingThatNoEngineHasOrOutOfRange() {
    expectError(
      #", "analysis": { "engineSettings": { "gbstats-baysian": { "chanceToWin": 0.9 } } }"#,
      "analysis.engineSettings.gbstats-baysian: is not a known field; did you mean 'gbstats-bayesian'? (known: gbstats-bayesian, "
        + "gbstats-frequentist, gbstats-sequential, confidence, optimizely-stats-engine, eppo-sequential)")
    expectError(
      #", "analysis": { "engineSettings": { "gbstats-bayesian": { "chanceToWinn": 0.9 } } }"#,
      "analysis.engineSettings.gbstats-bayesian.chanceToWinn: is not a known field; did you mean 'chanceToWin'? (known: "
        + "chanceToWin, minimumSampleSize, minimumChange)")
    expectError(
      #", "analysis": { "engineSettings": { "optimizely-stats-engine": { "significance": 1.5 } } }"#,
      "analysis.engineSettings.optimizely-stats-engine.significance: must lie between 0.5 and 0.9999, not 1.5")
  }

  @Test func anAlwaysValidMixtureOutOfRange() {
    expectError(
      #", "analysis": { "alwaysValidMixture": 0 }"#,
      "analysis.alwaysValidMixture: must lie between 0.001 and 10: a relative lift such as 0.1 for 10%")
  }

  @Test func aGuardrailOnAnUnknownMetricOrWithABadMargin() {
    expectError(
      #", "metrics": [ { "name": "revenue", "kind": "continuous", "baseline": 2, "distribution": "gamma", "shape": 2 } ], "analysis": { "guardrails": { "refunds": 0.02 } }"#,
      "analysis.guardrails.refunds: 'refunds' is not a metric of the scenario (metrics: revenue)")
    expectError(
      #", "metrics": [ { "name": "revenue", "kind": "continuous", "baseline": 2, "distribution": "gamma", "shape": 2 } ], "analysis": { "guardrails": { "revenue": 2 } }"#,
      "analysis.guardrails.revenue: must lie between 0 and 1: the largest acceptable loss as a relative lift, e.g. 0.02 for 2%")
  }

  @Test func aDisplayProbabilityOfZero() {
    expectError(
      #", "displayProbability": { "Theme": 0 }"#,
      "displayProbability.Theme: must be greater than 0 and at most 1")
  }
}

@Suite struct BehaviourLoadingTests {
  @Test func behaviourSectionsAreRead() throws {
    let extra = """
      , "population": { "segments": [ { "name": "ios", "share": 0.6, "dailyLaunchProbability": 0.5, "attributes": { "platform": "iOS" } },
                                       { "name": "android", "share": 0.4 } ] },
        "displayProbability": { "Theme": 0.25 },
        "metrics": [ { "name": "revenue", "kind": "continuous", "distribution": "gamma", "shape": 2, "baseline": 3,
                       "segmentBaselines": { "ios": 4 }, "lifts": { "Theme": { "Red": 0.1 } },
                       "segmentLifts": { "android": { "Theme": { "Red": -0.1 } } } } ],
        "analysis": { "alpha": 0.01, "correction": "benjamini-hochberg", "attribution": "exclude-contaminated", "dailyLooks": true,
                      "minimumDetectableEffect": 0.05, "power": 0.9, "liftInterval": "delta",
                      "alwaysValidMixture": 0.2, "engine": "gbstats-sequential" }
      """
    let scenario = try parse(minimalScenario(extra: extra)).scenario
    #expect(scenario.population.segments.map(\.name) == ["ios", "android"])
    #expect(scenario.population.segments[1].dailyLaunchProbability == 1)
    #expect(scenario.displayProbability(of: "Theme") == 0.25)
    #expect(scenario.displayProbability(of: "Other") == 1)
    let metric = scenario.metrics[0]
    #expect(metric.kind == .continuous(.gamma(shape: 2)))
    #expect(metric.baseline(in: "ios") == 4 && metric.baseline(in: "android") == 3)
    #expect(metric.lift(of: "Red", in: "Theme", segment: "ios") == 0.1)
    #expect(metric.lift(of: "Red", in: "Theme", segment: "android") == -0.1)
    #expect(metric.lift(of: "Blue", in: "Theme", segment: "ios") == 0)
    var expected = AnalysisSettings(
      alpha: 0.01, correction: .benjaminiHochberg, attribution: .excludeContaminated, dailyLooks: true,
      minimumDetectableEffect: 0.05, power: 0.9)
    expected.liftInterval = .delta
    expected.alwaysValidMixture = 0.2
    expected.engines = [.gbstatsSequential]
    #expect(scenario.analysis == expected)
    #expect(try parse(minimalScenario(extra: "")).scenario.analysis.liftInterval == .ratio)
    #expect(try parse(minimalScenario(extra: "")).scenario.analysis.engines.isEmpty)
  }
}

/// Bad remote sections, with the messages docs/scenarios.md documents.
@Suite struct RemoteErrorTests {
  private func expectError(_ remote: String, churn: String = "", _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectScenarioError(minimalScenario(extra: #", "remote": "# + remote + churn), expected, sourceLocation: sourceLocation)
  }

  private let add = """
    {"day": 0, "add": {"name": "Checkout", "keys": ["flow"], "variants": [
      {"name": "A", "percentage": 50, "values": {"flow": "a"}}, {"name": "B", "percentage": 50, "values": {"flow": "b"}}]}}
    """

  @Test func percentagesThatDoNotSumToAHundred() {
    expectError(
      #"{"changes": [\#(add.replacingOccurrences(of: #""percentage": 50, "values": {"flow": "b"}"#, with: #""percentage": 40, "values": {"flow": "b"}"#))]}"#,
      "remote.changes[0].add.variants: percentages must sum to 100, not 90.0")
  }

  @Test func aChangeToAnExperimentNotOnTheService() {
    expectError(
      #"{"changes": [{"day": 3, "conclude": {"experiment": "Checkout", "winner": "A"}}]}"#,
      "remote.changes[0].conclude.experiment: 'Checkout' is not on the service on that day: add it in an earlier change")
  }

  @Test func aChangeWithTwoActions() {
    expectError(
      #"{"changes": [{"day": 0, "remove": "Checkout", "override": {"experiment": "Checkout", "keys": ["flow"]}}]}"#,
      "remote.changes[0]: must hold \"day\" and exactly one of add, remove, setPercentages, setValues, override, conclude, declareKeys")
  }

  @Test func anOverrideOfAKeyTheExperimentDoesNotHave() {
    expectError(
      #"{"changes": [\#(add), {"day": 1, "override": {"experiment": "Checkout", "keys": ["flow", "colour"]}}]}"#,
      "remote.changes[1].override.keys[1]: 'colour' is not a key of Checkout (keys: flow)")
  }

  /// The seed (000) lets an experiment's keys be declared over time ("if you added a new key to
  /// your experiment…"): after a `__Keys_` declaration lists a key, an override may name it;
  /// before it, the key is still refused.
  @Test func anOverrideMayNameAKeyALaterDeclarationAdded() throws {
    let declare = #"{"day": 2, "declareKeys": {"experiment": "Checkout", "value": "[\"flow\", \"colour\"]"}}"#
    let accepted = #"{"changes": [\#(add), \#(declare), {"day": 3, "override": {"experiment": "Checkout", "keys": ["colour"]}}]}"#
    let parsed = try Scenario.parse(Data(minimalScenario(extra: #", "remote": "# + accepted).utf8)).scenario
    #expect(parsed.remote?.changes.count == 3)
    expectError(
      #"{"changes": [\#(add), {"day": 1, "override": {"experiment": "Checkout", "keys": ["colour"]}}, \#(declare)]}"#,
      "remote.changes[1].override.keys[0]: 'colour' is not a key of Checkout (keys: flow)")
  }

  @Test func anOverrideOfNoKeys() {
    expectError(
      #"{"changes": [\#(add), {"day": 1, "override": {"experiment": "Checkout", "keys": []}}]}"#,
      "remote.changes[1].override.keys: must list at least one key of Checkout to override")
  }

  @Test func changesOutOfOrder() {
    expectError(
      #"{"changes": [\#(add.replacingOccurrences(of: #""day": 0"#, with: #""day": 5"#)), {"day": 2, "remove": "Checkout"}]}"#,
      "remote.changes[1].day: must not be before day 5: list changes in date order")
  }

  @Test func aRemoteExperimentNamedLikeALocalOne() {
    expectError(
      #"{"changes": [\#(add.replacingOccurrences(of: "Checkout", with: "Theme"))]}"#,
      "remote.changes[0].add.name: 'Theme' is already an experiment: give each experiment its own name")
  }

  @Test func churnOnALocalExperiment() {
    expectError(
      #"{"changes": [\#(add)]}"#, churn: #", "churn": [{"experiment": "Theme", "variant": "Red", "dailyProbability": 0.1}]"#,
      "churn[0].experiment: 'Theme' is a local experiment: churn rules apply to remote experiments, whose values can be fixed live")
  }
}

/// The hash-bucketed service's section: each documented error word for word.
@Suite struct ServiceErrorTests {
  private func expectError(_ service: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectScenarioError(minimalScenario(extra: #", "service": "# + service), expected, sourceLocation: sourceLocation)
  }

  private let start = #"{"day": 0, "start": {"name": "Paywall", "variations": [{"name": "A"}, {"name": "B"}]}}"#

  @Test func anUnknownFramework() {
    expectError(
      #"{"framework": "splitio", "changes": []}"#,
      #"service.framework: must be one of "optimizely", "growthbook", "launchdarkly", "statsig", "eppo", "unleash""#)
  }

  @Test func aNewBucketVersionUnderOptimizely() {
    expectError(
      #"{"framework": "optimizely", "changes": [\#(start), {"day": 1, "newBucketVersion": {"experiment": "Paywall"}}]}"#,
      "service.changes[1].newBucketVersion: does not apply to optimizely, which has no bucket versions, seeds or salts to change (remove the change)")
  }

  @Test func flagsAreOptimizelysAndCheckedByField() {
    expectError(
      #"{"framework": "growthbook", "flags": [], "changes": []}"#,
      "service.flags: are Optimizely's feature flags (seed 001): growthbook's are not modelled (remove them)")
    expectError(
      #"{"framework": "optimizely", "flags": [{"name": "Paywall", "rollout": [{"day": 0, "share": 1}]}], "changes": [\#(start)]}"#,
      "service.flags[0].name: 'Paywall' is already the name of a flag or an experiment of the service: give the flag its own")
    expectError(
      #"{"framework": "optimizely", "flags": [{"name": "Dark", "rollout": [{"day": 1, "share": 0.2}, {"day": 1, "share": 1}]}], "changes": []}"#,
      "service.flags[0].rollout[1].day: must be after day 1: list a flag's rollout steps in date order, one a day")
    expectError(
      #"{"framework": "optimizely", "flags": [{"name": "dark mode", "rollout": [{"day": 0, "share": 1}]}], "changes": []}"#,
      #"service.flags[0].name: should be UpperCamelCase, e.g. 'DarkMode', or set "naming": "lenient""#)
    expectError(
      #"{"framework": "optimizely", "flags": [{"name": "Dark", "rollout": []}], "changes": []}"#,
      "service.flags[0].rollout: must list at least one rollout step")
    expectError(
      #"{"framework": "optimizely", "flags": [{"name": "Dark", "rollout": [{"day": 0, "share": 2}]}], "changes": []}"#,
      "service.flags[0].rollout[0].share: must lie between 0 and 1")
  }

  @Test func accessBeforeDownloadIsOptimizelys() {
    expectError(
      #"{"framework": "growthbook", "accessBeforeDownload": 0.3, "changes": [\#(start)]}"#,
      "service.accessBeforeDownload: is Optimizely's: its activation is cached until the app restarts (seed 001), where growthbook's SDK reads the configuration it holds when asked (remove it)")
    expectError(
      #"{"framework": "optimizely", "accessBeforeDownload": 1.3, "changes": [\#(start)]}"#,
      "service.accessBeforeDownload: must lie between 0 and 1")
  }

  @Test func removingTheLastVariation() {
    expectError(
      #"{"framework": "growthbook", "changes": [{"day": 0, "start": {"name": "Paywall", "variations": [{"name": "A"}]}}, {"day": 1, "removeVariation": {"experiment": "Paywall", "variation": "A"}}]}"#,
      "service.changes[1].removeVariation.variation: is the last variation of Paywall: pause or conclude it instead")
  }

  @Test func trafficBeyondOne() {
    expectError(
      #"{"framework": "optimizely", "changes": [\#(start), {"day": 1, "setTraffic": {"experiment": "Paywall", "traffic": 50}}]}"#,
      "service.changes[1].setTraffic.traffic: must lie between 0 and 1")
  }

  @Test func aServiceExperimentNamedLikeALocalOne() {
    expectError(
      #"{"framework": "optimizely", "changes": [\#(start.replacingOccurrences(of: "Paywall", with: "Theme"))]}"#,
      "service.changes[0].start.name: 'Theme' is already an experiment: give each experiment its own name")
  }

  @Test func aBadMinimumVersion() {
    expectError(
      #"{"framework": "optimizely", "changes": [{"day": 0, "start": {"name": "Paywall", "variations": [{"name": "A"}], "audience": {"minimumAppVersion": "2.x"}}}]}"#,
      #"service.changes[0].start.audience.minimumAppVersion: must be a version of one to three numbers, e.g. "2.1""#)
  }
}

/// The enrollment section: each documented error word for word.
@Suite struct EnrollmentErrorTests {
  private func expectError(_ enrollment: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectScenarioError(minimalScenario(extra: #", "enrollment": "# + enrollment), expected, sourceLocation: sourceLocation)
  }

  @Test func anUnknownPolicy() {
    expectError(#"{"Theme": {"policy": "display"}}"#, #"enrollment.Theme.policy: must be "allocation", "check" or "run""#)
  }

  @Test func aPreconditionWithoutItsRate() {
    expectError(#"{"Theme": {"precondition": {"events": 5}}}"#, "enrollment.Theme.precondition.eventsPerLaunch: is required")
  }

  @Test func anUnknownExperiment() {
    expectError(#"{"Prise": {}}"#, "enrollment.Prise: 'Prise' is not an experiment of the scenario (experiments: Theme)")
  }

  @Test func aHandshakeWaitOutOfRange() {
    expectError(
      #"{"Theme": {"handshake": {"groupDefinitionWaiting": 0}}}"#,
      "enrollment.Theme.handshake.groupDefinitionWaiting: must be greater than 0 and at most 86400 seconds")
  }

  @Test func aLapseChanceOutOfRange() {
    expectError(
      #"{"Theme": {"precondition": {"launchChance": 1, "lapseChance": 1.5}}}"#,
      "enrollment.Theme.precondition.lapseChance: must lie between 0 and 1")
  }

  @Test func theServersAnswersAreChances() {
    for field in ["emptyConfigurationChance", "refusalChance", "userChangeChance"] {
      expectError(
        #"{"Theme": {"handshake": {"\#(field)": -0.1}}}"#, "enrollment.Theme.handshake.\(field): must lie between 0 and 1")
    }
  }

  @Test func sharedDevicesNeedBothChances() {
    expectError(
      #"{"Theme": {"handshake": {"sharedDevices": {"share": 0.2}}}}"#,
      "enrollment.Theme.handshake.sharedDevices.switchChance: is required")
    expectError(
      #"{"Theme": {"handshake": {"sharedDevices": {"share": 2, "switchChance": 0.5}}}}"#,
      "enrollment.Theme.handshake.sharedDevices.share: must lie between 0 and 1")
  }

  @Test func anUnknownMomentForTheWaits() {
    expectError(
      #"{"Theme": {"handshake": {"waitsSet": "later"}}}"#,
      #"enrollment.Theme.handshake.waitsSet: must be "beforeInitialization" or "afterInitialization""#)
  }
}

extension RemoteErrorTests {
  private func komaScenario(_ extra: String, values: String = #""values": "koma", "#) -> String {
    minimalScenario(
      extra: #", "remote": {"# + values
        + #""defaults": {"flow": "a"}, "# + extra
        + #", "changes": [{"day": 0, "add": {"name": "Checkout", "keys": ["flow"], "variants": [{"name": "A", "percentage": 100, "values": {"flow": "a"}}]}}]}"#)
  }

  @Test func customAndDebugValuesAreKOMAs() {
    expectScenarioError(
      komaScenario(#""debugValues": {"share": 0.1, "values": {"flow": "qa"}}"#, values: ""),
      #"remote.debugValues: goes with "values": "koma": custom and debug values are KOMA's"#)
    expectScenarioError(
      komaScenario(#""customValues": {"share": 0.1, "values": {"tab": "x"}}"#),
      "remote.customValues.values.tab: 'tab' has no default in remote.defaults: custom and debug values stand in for a KOMA key's")
    expectScenarioError(
      komaScenario(#""customValues": {"share": 1.5, "values": {"flow": "x"}}"#),
      "remote.customValues.share: must lie between 0 and 1")
    expectScenarioError(
      komaScenario(#""customValues": {"share": 0.5, "values": {}}"#),
      "remote.customValues.values: must give at least one key its value")
    expectScenarioError(
      komaScenario(#""customValues": {"values": {"flow": "x"}}"#), "remote.customValues.share: is required")
  }

  @Test func aKOMAKeyWithoutADefault() {
    expectScenarioError(
      minimalScenario(extra: #", "remote": {"values": "koma", "changes": [{"day": 0, "add": {"name": "Checkout", "keys": ["flow"], "variants": [{"name": "A", "percentage": 100, "values": {"flow": "a"}}]}}]}"#),
      "remote.changes[0].add.keys: 'flow' has no default in remote.defaults: KOMA values need an in-app default for every key")
  }
}
