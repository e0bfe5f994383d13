import Foundation
import Lab
import Platforms
import ScenarioFormat
import Testing

/// How `bench compare` expresses one plan in each framework (docs/compare.md).
@Suite struct ComparedFrameworkTests {
  private func plan() throws -> Scenario {
    try parse(#"""
      { "name": "plan", "seed": 1, "devices": 10, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 } ],
        "service": { "framework": "growthbook", "changes": [
          {"day": 0, "start": {"name": "Paywall", "traffic": 0.5, "variations": [{"name": "Control"}, {"name": "Treatment", "weight": 3}]}},
          {"day": 10, "setTraffic": {"experiment": "Paywall", "traffic": 1}},
          {"day": 12, "newBucketVersion": {"experiment": "Paywall"}},
          {"day": 20, "removeVariation": {"experiment": "Paywall", "variation": "Treatment"}} ] } }
      """#).scenario
  }

  @Test func optimizelyLeavesOutTheBucketVersionAndSaysSo() throws {
    let (scenario, notes) = try ComparedFramework.platform(OptimizelyPlatform.traits).express(plan())
    #expect(scenario.service?.framework == OptimizelyPlatform.traits)
    #expect(scenario.service?.changes.map(\.day) == [0, 10, 20])
    #expect(notes == ["day 12, Paywall: Optimizely has no bucket versions; the re-randomization is left out"])
    let (growthBook, none) = try ComparedFramework.platform(GrowthBookPlatform.traits).express(plan())
    #expect(growthBook.service?.changes.count == 4 && none.isEmpty)
  }

  /// The remote source: the traffic as a token range at the start, weights as
  /// percentages summing to 100, a deleted variation at 0%.
  @Test func labRemoteTakesPercentagesAndATokenRange() throws {
    let (scenario, notes) = try ComparedFramework.labRemote.express(plan())
    #expect(scenario.service == nil)
    let changes = try #require(scenario.remote?.changes)
    guard case .add(let experiment, let keys) = changes[0].action else {
      Issue.record("the start is not an add")
      return
    }
    #expect(keys == ["paywallVariation"])
    #expect(experiment.variants.map(\.percentage) == [25, 75])
    #expect(experiment.audience.tokenRange == (try TokenRange(lower: 0, upper: 0.5)))
    #expect(changes[1] == RemoteChange(day: 20, action: .setPercentages(experiment: "Paywall", percentages: ["Control": 100, "Treatment": 0])))
    #expect(notes == [
      "day 10, Paywall: the audience of a running Taplytics experiment is fixed; the traffic change is left out",
      "day 12, Paywall: Taplytics has no bucket versions; the re-randomization is left out",
      "day 20, Paywall: a Taplytics variant cannot be deleted; it goes to 0% and the devices assigned to it keep it",
    ])
  }

  /// The local source: one app version per change day, each with the
  /// experiment as configured that day.
  @Test func labLocalShipsAVersionPerChange() throws {
    let (scenario, notes) = try ComparedFramework.labLocal.express(plan())
    #expect(scenario.versions.map(\.version) == ["1.0", "1.0-day10", "1.0-day12", "1.0-day20"])
    let paywall = scenario.versions.map { $0.experiments.first }
    #expect(paywall[0]?.activeTokenRange == (try TokenRange(lower: 0, upper: 0.5)))
    #expect(paywall[0]?.variants.map(\.weight) == [333, 1_000])
    #expect(paywall[1]?.activeTokenRange == .all)
    #expect(paywall[3]?.variants.map(\.name) == ["Control"])
    #expect(notes == [
      "day 10, Paywall: the new token range reaches only devices that decide afresh (rule TokenRangeChange)",
      "day 12, Paywall: the local source has no bucket versions; the re-randomization is left out",
    ])
  }

  /// A change after the conclusion (here the winner's weight set to 0) leaves the winner alone on every device.
  @Test func aChangeAfterTheConclusionKeepsTheWinner() throws {
    let concluded = try parse(#"""
      { "name": "plan", "seed": 1, "devices": 10, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 } ],
        "service": { "framework": "growthbook", "changes": [
          {"day": 0, "start": {"name": "Paywall", "variations": [{"name": "Control"}, {"name": "Treatment"}]}},
          {"day": 10, "conclude": {"experiment": "Paywall", "winner": "Treatment"}},
          {"day": 20, "setWeights": {"experiment": "Paywall", "weights": {"Control": 1, "Treatment": 0}}} ] } }
      """#).scenario
    let (scenario, _) = try ComparedFramework.labLocal.express(concluded)
    let paywall = scenario.versions.map { $0.experiments.first }
    #expect(paywall[1]?.variants.map(\.name) == ["Treatment"] && paywall[2]?.variants.map(\.name) == ["Treatment"])
    #expect(paywall[2]?.variants.map(\.weight) == [1_000] && paywall[2]?.activeTokenRange == .all)
  }

  @Test func aPlanWithLocalExperimentsIsRefused() throws {
    var scenario = try plan()
    scenario.versions[0].experiments = [try Experiment(
      name: "Theme", keys: ["color"], variants: [Variant(name: "Blue", assignments: ["color": .string("blue")])])]
    #expect(throws: ComparisonError.experimentsOutsideThePlan) {
      try ComparedFramework.platform(OptimizelyPlatform.traits).express(scenario)
    }
  }

  /// Flags are Optimizely's alone: a comparison of frameworks refuses them, with the fix.
  @Test func aPlanWithFeatureFlagsIsRefused() throws {
    var scenario = try plan()
    scenario.service?.flags = [ServiceFlag(name: "NewCheckout", rollout: [.init(day: 0, share: 0.5)])]
    #expect(throws: ComparisonError.featureFlags) {
      try ComparedFramework.platform(OptimizelyPlatform.traits).express(scenario)
    }
    #expect("\(ComparisonError.featureFlags)".hasPrefix("service.flags: must be empty for bench compare"))
  }
}
