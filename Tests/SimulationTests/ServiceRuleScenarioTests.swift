import Foundation
import Platforms
import Results
import ScenarioFormat
import Testing

/// The hash-bucketed services' rules measured over a population, against
/// their analytic expectations. Every device launches daily and fetches never
/// fail, so every device takes every change.
@Suite struct ServiceRuleScenarioTests {
  /// docs/rules/OptimizelyTrafficChange.md.
  @Test func optimizelyTrafficChangeKeepsTheBucketedAndWeightsMoveThirtyPercent() async throws {
    let results = await run(try scenario("optimizely-traffic-change"))
    let experiment = try #require(results.experiment("Paywall"))
    #expect(experiment.source == "optimizely")
    #expect(experiment.changes.map(\.day) == [0, 10, 20])
    let traffic = experiment.changes[1], weights = experiment.changes[2]
    #expect(traffic.devices == 20_000 && traffic.moved == 0 && traffic.left == 0)
    #expect(withinBinomialBound(traffic.entered, of: 20_000, p: 0.5))
    #expect(traffic.kept + traffic.entered == 20_000)
    #expect(weights.entered == 0 && weights.left == 0)
    #expect(withinBinomialBound(weights.moved, of: 20_000, p: 0.3))
    // A user profile store holds everyone through the weight change.
    var sticky = try scenario("optimizely-traffic-change")
    sticky.service?.stickyChoice = true
    let held = try #require(await run(sticky).experiment("Paywall")?.changes[2])
    #expect(held.moved == 0 && held.kept == 20_000)
    // Left to the framework, Optimizely keeps its mobile SDKs' profile, and GrowthBook stores nothing.
    sticky.service?.stickyChoice = nil
    #expect(sticky.service?.sticky == true)
    #expect(try #require(await run(sticky).experiment("Paywall")?.changes[2]).moved == 0)
    sticky.service?.framework = GrowthBookPlatform.traits
    #expect(sticky.service?.sticky == false)
  }

  /// docs/rules/OptimizelyActivation.md: at 30% of launches the app reads
  /// Paywall before the datafile arrives and keeps the previous datafile's
  /// activation for the session. When the traffic opens on day 5, 30% of
  /// the launches that day are stale; of the users it brings in, 70% enter
  /// that day and 30% at their next launch; nobody in it moves. Without the
  /// lag everyone enters on day 5.
  @Test func anActivationReadBeforeTheDownloadWaitsForTheRestart() async throws {
    let plan = try scenario("optimizely-activation")
    let results = await run(plan)
    let experiment = try #require(results.experiment("Paywall"))
    let stale = try #require(results.delivery?.staleActivations)
    #expect(stale.enumerated().allSatisfy { $0.offset == 5 || $0.element == 0 })
    #expect(withinBinomialBound(stale[5], of: 20_000, p: 0.3))
    let opening = experiment.changes[1]
    #expect(opening.day == 5 && opening.moved == 0 && opening.left == 0 && opening.kept + opening.entered == 20_000)
    let newOn = { (day: Int) in experiment.dailyNewExposures.map { $0[day] }.reduce(0, +) }
    #expect(newOn(5) + newOn(6) == opening.entered)
    #expect(withinBinomialBound(newOn(6), of: opening.entered, p: 0.3))
    var prompt = plan
    prompt.service?.accessBeforeDownload = 0
    let immediate = try #require(await run(prompt).experiment("Paywall"))
    #expect(immediate.dailyNewExposures.map { $0[6] }.reduce(0, +) == 0)
    #expect(try #require(await run(prompt).delivery).staleActivations.isEmpty)
  }

  /// docs/rules/OptimizelyFeatureFlag.md: NewCheckout enters the datafile on
  /// day 2 at 20% and goes to 100% on day 5, a fifth of the downloads fail.
  /// Without a datafile that has it the flag is false: everyone on days 0
  /// and 1, then the devices whose downloads failed every day since day 2
  /// (0.2ᵈ⁻¹ of them). Read with the latest datafile, the flag is on for
  /// every device that downloaded on day 5, and for a fifth of those that
  /// hold an older one; reading Paywall before the download changes nothing
  /// for the flag.
  @Test func aFeatureFlagIsReadWithTheLatestDatafileAndFalseWithout() async throws {
    let plan = try scenario("optimizely-feature-flag")
    let results = await run(plan)
    let delivery = try #require(results.delivery)
    let flag = try #require(delivery.flags.first)
    #expect(flag.name == "NewCheckout")
    #expect(Array(flag.unknown.prefix(2)) == [20_000, 20_000])
    #expect(Array(flag.on.prefix(2)) == [0, 0])
    for day in 2...4 {
      #expect(withinBinomialBound(flag.unknown[day], of: 20_000, p: Foundation.pow(0.2, Double(day - 1))), "day \(day)")
    }
    #expect(withinBinomialBound(flag.on[2], of: 20_000, p: 0.8 * 0.2))
    let failed = delivery.failedFetches[5], holdingOlder = failed - flag.unknown[5]
    #expect(withinBinomialBound(flag.on[5] - (20_000 - failed), of: holdingOlder, p: 0.2))
    #expect(delivery.staleActivations[5] > 0)
    var prompt = plan
    prompt.service?.accessBeforeDownload = 0
    let promptDelivery = try #require(await run(prompt).delivery)
    #expect(promptDelivery.flags == delivery.flags)
    #expect(promptDelivery.staleActivations.isEmpty)
  }

  /// A scenario that leaves `sticky` out reads as the framework's mobile default.
  /// A download of the datafile that fails counts in `delivery.failedFetches`
  /// as a failed fetch of the remote configuration does (they were left out):
  /// every launch downloads, so a quarter of the launches fail.
  @Test func failedDownloadsOfTheServiceAreCounted() async throws {
    var plan = try scenario("optimizely-traffic-change", devices: 3_000)
    plan.service?.fetch = FetchModel(
      failureRate: 0.25, medianLatencySeconds: 0.1, latencySigma: 0, timeoutSeconds: 10, segments: [:])
    let results = await run(plan)
    let failed = try #require(results.delivery).failedFetches.reduce(0, +)
    #expect(results.launches > 50_000)
    #expect(withinBinomialBound(failed, of: results.launches, p: 0.25))
    let reliable = await run(try scenario("optimizely-traffic-change", devices: 3_000))
    #expect(try #require(reliable.delivery).failedFetches.allSatisfy { $0 == 0 })
  }

  @Test func aServiceWithoutStickyTakesItsFrameworksMobileDefault() throws {
    for (framework, expected) in [("optimizely", true), ("growthbook", false)] {
      let text = """
        {"name": "s", "seed": 1, "devices": 10, "days": 2, "versions": [{"version": "1.0", "releaseDay": 0}],
         "service": {"framework": "\(framework)", "changes": [
           {"day": 0, "start": {"name": "Paywall", "variations": [{"name": "A"}, {"name": "B"}]}}]}}
        """
      let scenario = try Scenario.parse(Data(text.utf8)).scenario
      #expect(scenario.service?.sticky == expected, "\(framework)")
      #expect(scenario.service?.stickyChoice == nil)
    }
  }

  /// docs/rules/GrowthBookWeightChange.md.
  @Test func growthBookStickyBucketsHoldUntilANewBucketVersion() async throws {
    let results = await run(try scenario("growthbook-weight-change"))
    let experiment = try #require(results.experiment("Checkout"))
    #expect(experiment.source == "growthbook")
    let weights = experiment.changes[1], rebucket = experiment.changes[2]
    #expect(weights.kept == 20_000 && weights.moved == 0)
    #expect(withinBinomialBound(rebucket.moved, of: 20_000, p: 0.3))
    #expect(rebucket.kept + rebucket.moved == 20_000)
    // Without sticky bucketing the weights move 30% at once, and the new bucket version nobody.
    var plain = try scenario("growthbook-weight-change")
    plain.service?.stickyChoice = false
    let changes = try #require(await run(plain).experiment("Checkout")?.changes)
    #expect(withinBinomialBound(changes[1].moved, of: 20_000, p: 0.3))
    #expect(changes[2].moved == 0)
  }

  /// A device that reinstalls gets a new id, and so a new bucket: half of
  /// them change variation under a 50/50 split.
  @Test func aReinstallRebucketsTheDevice() async throws {
    var reinstalling = try scenario("optimizely-traffic-change")
    let everyone = ServiceExperiment(
      name: "Paywall", variations: [ServiceVariation(name: "Control", weight: 1), ServiceVariation(name: "Treatment", weight: 1)],
      traffic: 1, audience: ServiceAudience())
    reinstalling.service = ServicePlan(
      framework: OptimizelyPlatform.traits, sticky: true, reinstallShare: 1, fetch: .reliable,
      changes: [ServiceChange(day: 0, action: .start(everyone))])
    let experiment = try #require(await run(reinstalling).experiment("Paywall"))
    let contaminated = experiment.variants.map(\.contaminated).reduce(0, +) / 2
    #expect(withinBinomialBound(contaminated, of: 20_000, p: 0.5, sigmas: 6))
  }

  /// docs/rules/LaunchDarklyRolloutChange.md, StatsigSaltChange.md,
  /// EppoSplitChange.md and UnleashRolloutChange.md, each in its scenario:
  /// opening Paywall from 50% to 100% (day 10) moves a quarter of the devices
  /// under LaunchDarkly's single rollout and nobody under the others; 4:1
  /// weights (day 20) move 30% everywhere; a new seed, salt or group id
  /// (day 25) moves 2 · 0.8 · 0.2 = 32%.
  @Test(arguments: [
    ("launchdarkly-rollout-change", 0.25), ("statsig-salt-change", 0.0), ("eppo-split-change", 0.0), ("unleash-rollout-change", 0.0),
  ])
  func eachPlatformMovesWhatItsRulePageSays(name: String, movedWhenOpened: Double) async throws {
    let results = await run(try scenario(name))
    let changes = try #require(results.experiment("Paywall")?.changes)
    #expect(changes.count == 4)
    let opened = changes[1], weights = changes[2], salt = changes[3]
    #expect(opened.devices == 20_000 && weights.devices == 20_000 && salt.devices == 20_000)
    if movedWhenOpened == 0 {
      #expect(opened.moved == 0)
      #expect(withinBinomialBound(opened.entered, of: 20_000, p: 0.5))
    } else {
      #expect(withinBinomialBound(opened.moved, of: 20_000, p: movedWhenOpened))
    }
    #expect(withinBinomialBound(weights.moved, of: 20_000, p: 0.3))
    #expect(withinBinomialBound(salt.moved, of: 20_000, p: 0.32))
    #expect(weights.left == 0 && salt.left == 0)
  }
}
