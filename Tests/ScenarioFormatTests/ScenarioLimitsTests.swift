import Foundation
import ScenarioFormat
import Testing

/// Every number a scenario holds has a range the reader enforces, chosen so
/// that nothing downstream overflows, traps or allocates beyond the plan's
/// size. Each case here once trapped, hung or silently misbehaved.
@Suite struct ScenarioLimitsTests {
  private func variants(_ names: [String]) -> String {
    names.map { #"{ "name": "\#($0)", "assignments": { "color": "\#($0)" } }"# }.joined(separator: ", ")
  }

  private func experiment(variants names: [String]) -> String {
    #"{ "name": "Theme", "keys": ["color"], "variants": [\#(variants(names))] }"#
  }

  @Test func daysAndDevicesBeyondTheirRanges() {
    for days in ["1000000000000", "9223372036854775807", "0"] {
      expectScenarioError(
        minimalScenario().replacingOccurrences(of: #""days": 30"#, with: #""days": \#(days)"#),
        "days: must lie between 1 and 3660, not \(days)")
    }
    expectScenarioError(
      minimalScenario().replacingOccurrences(of: #""devices": 100"#, with: #""devices": 4611686018427387904"#),
      "devices: must lie between 1 and 1000000000, not 4611686018427387904")
  }

  @Test func moreVariantsThanADeviceRecordHoldsAreRefused() throws {
    expectScenarioError(
      minimalScenario(experiments: experiment(variants: (0..<65).map { "V\($0)" })),
      "versions[0].experiments[0].variants: lists 65 variants; at most 64 are accepted")
    expectScenarioError(
      minimalScenario(experiments: experiment(variants: (0..<255).map { "V\($0)" })),
      "versions[0].experiments[0].variants: lists 255 variants; at most 64 are accepted")
    let (scenario, _) = try parse(minimalScenario(experiments: experiment(variants: (0..<64).map { "V\($0)" })))
    #expect(scenario.versions[0].experiments[0].variants.count == 64)
  }

  /// The record holds a bit per variant of any version: 40 new names in a
  /// second version make 80.
  @Test func variantsAreCountedAcrossVersions() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30, "versions": [
        { "version": "1.0", "releaseDay": 0, "experiments": [\(experiment(variants: (0..<40).map { "A\($0)" }))] },
        { "version": "2.0", "releaseDay": 5, "adoption": { "meanDelayDays": 1 },
          "experiments": [\(experiment(variants: (0..<40).map { "B\($0)" }))] } ] }
      """
    expectScenarioError(
      text,
      "versions[1].experiments[0].variants: brings Theme to 80 variants over the plan; at most 64 are accepted: "
        + "reuse the names of its earlier variants")
  }

  /// A remote experiment removed and added again keeps one record: its
  /// variants and keys are counted over every time it was added, and keys
  /// declared by value too.
  @Test func remoteVariantsAndKeysAreCountedOverTheRun() {
    func add(day: Int, prefix: String, keys: [String]) -> String {
      let variants = (0..<40).map { index in
        let values = keys.map { #""\#($0)": "x""# }.joined(separator: ", ")
        return #"{"name": "\#(prefix)\#(index)", "percentage": \#(index == 0 ? 61 : 1), "values": {\#(values)}}"#
      }
      let keyList = keys.map { #""\#($0)""# }.joined(separator: ", ")
      return #"{"day": \#(day), "add": {"name": "Checkout", "keys": [\#(keyList)], "variants": [\#(variants.joined(separator: ", "))]}}"#
    }
    let readd = #"{"changes": [\#(add(day: 0, prefix: "A", keys: ["flow"])), {"day": 1, "remove": "Checkout"}, \#(add(day: 2, prefix: "B", keys: ["flow"]))]}"#
    expectScenarioError(
      minimalScenario(extra: #", "remote": "# + readd),
      "remote.changes[2].add.variants: brings Checkout to 80 variants over the plan; at most 64 are accepted: "
        + "reuse the names of its earlier variants")
    let keys = (0..<65).map { #"\"k\#($0)\""# }.joined(separator: ",")
    let declared = #"{"changes": [\#(add(day: 0, prefix: "A", keys: ["flow"])), {"day": 1, "declareKeys": {"experiment": "Checkout", "value": "[\#(keys)]"}}]}"#
    expectScenarioError(
      minimalScenario(extra: #", "remote": "# + declared),
      "remote.changes[1].declareKeys.value: brings Checkout to 66 keys over the plan; at most 64 are accepted: "
        + "reuse the names of its earlier keys")
  }

  @Test func serviceVariationsAreCountedOverTheRun() {
    var changes = [#"{"day": 0, "start": {"name": "Paywall", "variations": [{"name": "V0"}]}}"#]
    for index in 1..<65 {
      changes.append(#"{"day": 1, "addVariation": {"experiment": "Paywall", "name": "V\#(index)", "weight": 1}}"#)
      changes.append(#"{"day": 1, "removeVariation": {"experiment": "Paywall", "variation": "V\#(index - 1)"}}"#)
    }
    expectScenarioError(
      minimalScenario(extra: #", "service": {"framework": "growthbook", "changes": [\#(changes.joined(separator: ", "))]}"#),
      "service.changes[127].addVariation.name: brings Paywall to 65 variations over the plan; at most 64 are accepted: "
        + "reuse the names of its earlier variations")
  }

  @Test func aGammaShapeTooSmallToDraw() {
    let metric = #", "metrics": [{ "name": "revenue", "kind": "continuous", "baseline": 1, "distribution": "gamma", "shape": 5e-324 }]"#
    expectScenarioError(minimalScenario(extra: metric), "metrics[0].shape: must lie between 0.01 and 10000, not 5e-324")
  }

  @Test func aCovariateCorrelationOfOneOrMore() throws {
    for (value, shown) in [("1", "1"), ("-1.5", "-1.5"), ("0.995", "0.995")] {
      let metric = #", "metrics": [{ "name": "paid", "kind": "conversion", "baseline": 0.1, "covariateCorrelation": \#(value) }]"#
      expectScenarioError(
        minimalScenario(extra: metric), "metrics[0].covariateCorrelation: must lie between -0.99 and 0.99, not \(shown)")
    }
    let metric = #", "metrics": [{ "name": "paid", "kind": "conversion", "baseline": 0.1, "covariateCorrelation": -0.99 }]"#
    #expect(try parse(minimalScenario(extra: metric)).scenario.metrics[0].covariateCorrelation == -0.99)
  }

  @Test func aMinimumDetectableDifferenceOutOfRangeOrForAnUnknownMetric() throws {
    let metrics = #", "metrics": [{ "name": "paid", "kind": "conversion", "baseline": 0 }, "#
      + #"{ "name": "revenue", "kind": "continuous", "baseline": 2, "distribution": "gamma", "shape": 2 }]"#
    func analysis(_ differences: String) -> String {
      minimalScenario(extra: metrics + #", "analysis": { "minimumDetectableDifference": \#(differences) }"#)
    }
    expectScenarioError(
      analysis(#"{ "refunds": 1 }"#),
      "analysis.minimumDetectableDifference.refunds: 'refunds' is not a metric of the scenario (metrics: paid, revenue)")
    for rate in ["0", "-0.01", "1.5"] {
      expectScenarioError(
        analysis(#"{ "paid": \#(rate) }"#),
        "analysis.minimumDetectableDifference.paid: must be greater than 0 and at most 1: a difference of rates, e.g. 0.01 for one percentage point")
    }
    expectScenarioError(
      analysis(#"{ "revenue": 2e15 }"#),
      "analysis.minimumDetectableDifference.revenue: must be greater than 0 and at most 1e15: a difference of mean amounts per device")
    let settings = try parse(analysis(#"{ "paid": 0.01, "revenue": 1.5 }"#)).scenario.analysis
    #expect(settings.minimumDetectableDifferences == ["paid": 0.01, "revenue": 1.5])
  }

  @Test func aMinimumSampleBelowTwoOrAboveAMillion() throws {
    for value in ["1", "0", "1000001"] {
      expectScenarioError(
        minimalScenario(extra: #", "analysis": { "minimumDevicesPerVariant": \#(value) }"#),
        "analysis.minimumDevicesPerVariant: must lie between 2 and 1000000, not \(value)")
    }
    #expect(try parse(minimalScenario()).scenario.analysis.minimumDevicesPerVariant == 10)
    let settings = try parse(minimalScenario(extra: #", "analysis": { "minimumDevicesPerVariant": 2 }"#)).scenario.analysis
    #expect(settings.minimumDevicesPerVariant == 2)
  }

  @Test func aMinimumDetectableEffectOutsideWhatPowerCanReach() {
    for effect in ["1e-12", "1e-300", "1e308"] {
      expectScenarioError(
        minimalScenario(extra: #", "analysis": { "minimumDetectableEffect": \#(effect) }"#),
        "analysis.minimumDetectableEffect: must lie between 0.001 and 10: a relative lift such as 0.05 for 5%")
    }
  }

  /// A lift of 30 is +3,000%: far more likely 30% written as a percentage.
  @Test func aLiftWrittenAsAPercentage() {
    let metric = #", "metrics": [{ "name": "subscribed", "kind": "conversion", "baseline": 0.001, "lifts": { "Theme": { "Red": 30 } } }]"#
    expectScenarioError(
      minimalScenario(extra: metric),
      "metrics[0].lifts.Theme.Red: must be at most 10 (+1,000%): a lift is a fraction, write 0.3 for +30%")
  }

  @Test func aKeyWithTwoTypesAcrossVariants() {
    expectScenarioError(
      minimalScenario(experiments: defaultExperiment.replacingOccurrences(of: #""color": "red""#, with: #""color": 7"#)),
      "versions[0].experiments[0].variants[1].assignments.color: is a number where Blue gives a string: "
        + "give 'color' one type in every variant")
  }

  @Test func aSchemaReferenceIsAccepted() throws {
    let (scenario, _) = try parse(minimalScenario(extra: #", "$schema": "../docs/scenario.schema.json""#))
    #expect(scenario.name == "tiny")
    expectScenarioError(minimalScenario(extra: #", "$schema": 1"#), "$schema: must be a string, not a number")
  }

  @Test func moreVersionsThanAPlanHolds() {
    let versions = (0..<101).map { index in
      index == 0
        ? #"{ "version": "v0", "releaseDay": 0 }"#
        : #"{ "version": "v\#(index)", "releaseDay": \#(index), "adoption": { "meanDelayDays": 1 } }"#
    }
    let text = #"{ "name": "tiny", "seed": 7, "devices": 100, "days": 300, "versions": [\#(versions.joined(separator: ", "))] }"#
    expectScenarioError(text, "versions: lists 101 versions; at most 100 are accepted")
  }

  @Test func anAdoptionDelayBeyondTheLongestRun() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30, "versions": [
        { "version": "1.0", "releaseDay": 0 }, { "version": "2.0", "releaseDay": 5, "adoption": { "meanDelayDays": 1e300 } } ] }
      """
    expectScenarioError(text, "versions[1].adoption.meanDelayDays: must lie between 0 and 3660 (0: everyone upgrades on release day)")
  }

  @Test func theLimitsAreTheDocumentedOnes() throws {
    let documented = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/scenarios.md"), encoding: .utf8)
    for line in [
      "| `devices` | 1 to 1,000,000,000 |", "| `days` | 1 to 3,660 |", "| `versions` | 1 to 100 |",
      "| `variants` of an experiment, across its versions | 1 to 64 |", "| `weight` | 1 to 1,000,000,000 |",
      "| `shape` (gamma) | 0.01 to 10,000 |", "| `covariateCorrelation` | −0.99 to 0.99 |",
      "| `minimumDevicesPerVariant` | 2 to 1,000,000 |", "| `quantiles` of a metric | 1 to 8, each 0.01 to 0.99 |",
      "| `winsorize` of a metric | 0.5 to 0.999 |", "| a novelty's `halfLifeDays` | 0.1 to 3,660 |",
      "| `segments`, `metrics`, `ratios` | 1 to 64, 0 to 64, 0 to 64 |",
      "| `minimumDetectableEffect` | 0.001 to 10 |",
    ] {
      #expect(documented.contains(line), "docs/scenarios.md lacks \(line)")
    }
  }
}
