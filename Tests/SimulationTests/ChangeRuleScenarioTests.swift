import Results
import Testing

/// Each change rule measured over a population, against its analytic
/// expectation. Every scenario releases its versions to every device at once
/// and every device launches daily, so all devices run every version.
@Suite struct ChangeRuleScenarioTests {
  /// Rule 1: nobody changes variant when only values change.
  @Test func assignmentChangeKeepsEveryDevice() async throws {
    let results = await run(try scenario("assignment-change"))
    let experiment = try #require(results.experiment("ButtonColor"))
    let transition = try #require(experiment.transition("1.0", "2.0"))
    #expect(transition.devices == 20_000)
    #expect(transition.kept == 20_000)
    #expect(transition.reassigned == 0 && transition.deactivated == 0 && transition.activated == 0)
    #expect(experiment.variants.map(\.contaminated) == [0, 0])
    #expect(withinBinomialBound(try #require(experiment.variant("B")).exposed, of: 20_000, p: 0.5))
  }

  /// Rule 2: after the return, 1 − Σpᵢ² = 0.64 of devices hold another variant.
  @Test func experimentReAddedReshufflesOneMinusSumOfSquares() async throws {
    let results = await run(try scenario("experiment-re-added"))
    let experiment = try #require(results.experiment("PaywallImage"))
    #expect(experiment.transition("1.0", "2.0")?.deactivated == 20_000)
    #expect(experiment.transition("2.0", "3.0")?.activated == 20_000)
    let back = try #require(experiment.transition("2.0", "3.0"))
    #expect(back.returned == 20_000)
    #expect(withinBinomialBound(back.returnedOnAnotherVariant, of: 20_000, p: 0.64))
    // A device that changed was displayed exactly two variants, so it is counted twice.
    let changed = experiment.variants.map(\.contaminated).reduce(0, +) / 2
    #expect(changed == back.returnedOnAnotherVariant)
  }

  /// Rule 3: A's devices stay; B's devices select again, 1 : 3 between A and C.
  @Test func deletedVariantSplitsByTheNewWeights() async throws {
    let results = await run(try scenario("deleted-variant"))
    let experiment = try #require(results.experiment("Onboarding"))
    let transition = try #require(experiment.transition("1.0", "2.0"))
    let fromB = try #require(experiment.variant("B")).exposed
    #expect(withinBinomialBound(fromB, of: 20_000, p: 0.5))
    #expect(transition.kept == 20_000 - fromB)
    #expect(transition.reassigned == fromB)
    let toC = try #require(experiment.variant("C")).exposed
    #expect(withinBinomialBound(toC, of: fromB, p: 0.75))
    #expect(try #require(experiment.variant("A")).contaminated == fromB - toC)
  }

  /// Rule 4: every device ran 1.0 and recorded its status, so the move keeps
  /// the 20% active under [0.2, 0.4) and reaches nobody in [0.4, 0.6).
  @Test func tokenRangeChangeKeepsEveryRecordedStatus() async throws {
    let results = await run(try scenario("token-range-change"))
    let experiment = try #require(results.experiment("PriceDisplay"))
    let transition = try #require(experiment.transition("1.0", "2.0"))
    #expect(transition.devices == 20_000)
    #expect(transition.deactivated == 0 && transition.reassigned == 0 && transition.activated == 0)
    #expect(withinBinomialBound(transition.kept, of: 20_000, p: 0.2))
    #expect(experiment.variants.map(\.exposed).reduce(0, +) == transition.kept)
    #expect(experiment.variants.map(\.contaminated) == [0, 0])
  }

  /// Rule 5: adjacent half-open ranges share a key and never conflict.
  @Test func adjacentRangesSplitTheDevicesWithoutConflict() async throws {
    let results = await run(try scenario("token-range-boundaries"))
    #expect(results.conflicts.map(\.devices) == [0])
    #expect(results.conflicts.map(\.key) == ["paywallTitle"])
    let copy = try #require(results.experiment("TitleCopy")).variants.map(\.exposed).reduce(0, +)
    let tone = try #require(results.experiment("TitleTone")).variants.map(\.exposed).reduce(0, +)
    #expect(copy + tone == 20_000)
    #expect(withinBinomialBound(copy, of: 20_000, p: 0.5))
  }

  /// Rule 6: every device stabilized, and B's devices were reassigned anyway.
  @Test func localStabilizationIsIgnored() async throws {
    let results = await run(try scenario("local-stabilization"))
    #expect(results.stabilizedDevices == 20_000)
    let experiment = try #require(results.experiment("Onboarding"))
    let transition = try #require(experiment.transition("1.0", "2.0"))
    #expect(transition.reassigned == experiment.variant("B")?.exposed)
    #expect(withinBinomialBound(transition.reassigned, of: 20_000, p: 0.5))
  }
}
