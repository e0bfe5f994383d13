import Analysis
import Foundation
import Results
import ScenarioFormat
import Testing

/// Optimizely's Stats Engine as its page decides: always-valid p-values whose false
/// conclusions stay within the significance threshold however often the page is read, adjusted
/// together by Benjamini and Hochberg.
@Suite struct OptimizelyResultsPageTests {

  @Test func readEveryDayAnAATestIsCalledAtMostTenPercentOfTheTime() {
    // 20,000 A/A replications of 20 daily looks of 250 devices an arm at 20%: a look's always-valid
    // p-value is the running minimum, so a result is called on some day exactly when it is at the last.
    var stream = SeededStream(state: 40_040)
    let settings = settings(effect: 0.2)
    var called = 0
    let replications = 20_000
    for _ in 0..<replications {
      let page = OptimizelyResultsPage().statuses(
        dailyConversionTest(looks: 20, perLook: 250, rate: 0.2, lift: 0, stream: &stream), settings: settings)
      if page["B"]?["converted"] != .inconclusive { called += 1 }
    }
    let rate = Double(called) / Double(replications)
    // At most 1 − 90% significance; the observed share's 95% upper bound is about 0.4 points above it.
    #expect(rate <= 0.10, "called \(rate) of A/A tests")
    #expect(rate > 0.005, "called \(rate): the test is not merely blind")
  }

  @Test func aTrueLiftIsFoundAndCalledAWinner() {
    var stream = SeededStream(state: 7)
    var winners = 0
    for _ in 0..<200 {
      let test = dailyConversionTest(looks: 20, perLook: 1000, rate: 0.2, lift: 0.1, stream: &stream)
      if OptimizelyResultsPage().call(test, settings: settings(effect: 0.2)) == .ship("B") { winners += 1 }
    }
    // A 10% lift on 20% over 20,000 devices an arm is called in most replications.
    #expect(winners > 150, "\(winners) of 200")
  }

  /// A winner on both treatments ships the larger lift, a loser on both keeps the baseline, and a
  /// loser beside a draw keeps running, as on GrowthBook's and Eppo's pages.
  @Test func theCallShipsTheLargestWinnerAndRollsBackWhenEveryVariationLoses() {
    for (experiment, call) in markedPageCalls() {
      #expect(OptimizelyResultsPage().call(experiment, settings: settings()) == call, "\(experiment.variants.map(\.metrics[0].conversions))")
    }
  }

  @Test func theFalseDiscoveryRateAdjustmentSpansMetricsAndVariations() {
    // Two variations on one metric: B's always-valid p-value alone would be conclusive, but adjusted
    // with C's (which shows nothing) by Benjamini–Hochberg it needs to be twice as small.
    var stream = SeededStream(state: 11)
    var alone = 0, together = 0
    for _ in 0..<300 {
      let two = dailyConversionTest(looks: 10, perLook: 400, rate: 0.2, lift: 0.08, stream: &stream)
      var three = two
      three.variants.append(conversionVariant("C", conversions: two.variants[0].metrics[0].conversions!, of: two.variants[0].metrics[0].n))
      three.dailyMetrics = two.dailyMetrics.map { $0 + [$0[0]] }
      let settings = settings(effect: 0.2)
      if OptimizelyResultsPage().statuses(two, settings: settings)["B"]?["converted"] == .winner { alone += 1 }
      if OptimizelyResultsPage().statuses(three, settings: settings)["B"]?["converted"] == .winner { together += 1 }
    }
    #expect(together < alone, "B called a winner \(alone) times alone, \(together) beside C")
    #expect(together > 0)
  }
}
