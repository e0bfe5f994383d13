import Analysis
import Foundation
import Results
import ScenarioFormat
import Statistics
import Testing

/// Eppo's results page with its default sequential method: intervals that stay valid however often
/// the page is read, marks where they exclude 0, and the call the bench reads from them.
@Suite struct EppoResultsPageTests {
  @Test func readEveryDayAnAATestIsMarkedAtMostFivePercentOfTheTime() throws {
    // 20,000 A/A replications of 20 daily looks of 250 devices an arm at 20%, the page read at the end
    // of every day: a replication counts once the page marks the metric on some day. The same lifts
    // read against the fixed-sample 95% interval each day (peeking) are marked far more often.
    var stream = SeededStream(state: 2_026_112_8)
    let page = EppoResultsPage()
    let z = try Distribution.normalQuantile(0.975)
    var marked = 0, markedByPeeking = 0
    let replications = 20_000
    for _ in 0..<replications {
      let test = dailyConversionTest(looks: 20, perLook: 250, rate: 0.2, lift: 0, stream: &stream)
      var sequential = false, peeking = false
      for day in test.dailyMetrics {
        if page.mark(baseline: day[0][0], variant: day[1][0]).status != .notSignificant { sequential = true }
        let (a, b) = (day[0][0], day[1][0])
        if let lift = EppoLift(control: (a.n, a.mean!, a.variance!), treatment: (b.n, b.mean!, b.variance!)),
          abs(lift.estimate) > z * lift.standardError
        {
          peeking = true
        }
      }
      if sequential { marked += 1 }
      if peeking { markedByPeeking += 1 }
    }
    let rate = Double(marked) / Double(replications), peekingRate = Double(markedByPeeking) / Double(replications)
    #expect(rate <= 0.05, "marked \(rate) of A/A tests")
    #expect(peekingRate > 0.15, "the fixed-sample interval read daily marked only \(peekingRate)")
  }

  @Test func aTrueLiftIsShipped() {
    // A 10% lift on 20% over 20,000 devices an arm: the lift's standard error is about 2.1 points and
    // the 95% sequence at 40,000 subjects spans 3.1 of them, so the page marks it in most replications.
    var stream = SeededStream(state: 7)
    var shipped = 0
    for _ in 0..<200 {
      let test = dailyConversionTest(looks: 20, perLook: 1000, rate: 0.2, lift: 0.1, stream: &stream)
      if EppoResultsPage().call(test, settings: settings()) == .ship("B") { shipped += 1 }
    }
    #expect(shipped > 170, "\(shipped) of 200")
  }

  @Test func theCallShipsTheLargestSignificantLiftAndRollsBackWhenEveryVariationLoses() {
    let page = EppoResultsPage(), settings = settings()
    for (experiment, call) in markedPageCalls() {
      #expect(page.call(experiment, settings: settings) == call, "\(experiment.variants.map(\.metrics[0].conversions))")
    }
  }

  @Test func aGuardrailSignificantlyNegativeHoldsTheShip() {
    var control = conversionVariant("A", conversions: 1000, of: 10_000)
    var treatment = conversionVariant("B", conversions: 1300, of: 10_000)
    func kept(_ rate: Double) -> MetricSummary {
      MetricSummary(
        name: "retained", isConversion: true, n: 10_000, conversions: Int(rate * 10_000), mean: rate,
        variance: rate * (1 - rate) * 10_000 / 9_999, trueMean: nil, trueLift: nil)
    }
    control.metrics.append(kept(0.5))
    treatment.metrics.append(kept(0.45))
    var settings = settings()
    settings.guardrails = ["retained": 0.05]
    #expect(EppoResultsPage().call(experiment([control, treatment]), settings: settings) == .keepRunning)
    // The same guardrail not shown worse: the ship goes ahead.
    treatment.metrics[1] = kept(0.495)
    #expect(EppoResultsPage().call(experiment([control, treatment]), settings: settings) == .ship("B"))
  }

  @Test func theReadingMarksEveryMetricWithItsLiftAndTheTeamsSettings() {
    // 1,130 against 1,000 conversions of 10,000: a lift of 13% with a standard error of 4.6 points,
    // which the 95% sequence at 20,000 subjects (B = 3.06) does not tell from 0, but the 80% one
    // (B = 2.48) does.
    let test = experiment([conversionVariant("A", conversions: 1000, of: 10_000), conversionVariant("B", conversions: 1130, of: 10_000)])
    var settings = settings()
    let reading = AnalysisEngine.eppoSequential.reading(test, settings: settings)
    #expect(reading?.marks.map(\.status) == ["not significant"])
    #expect(reading?.marks.first?.figureName == "lift")
    #expect(abs((reading?.marks.first?.figure ?? 0) - 0.13) < 1e-12)
    #expect(reading?.call == .keepRunning)
    settings.engineSettings[.eppoSequential] = [.confidenceLevel: 0.8]
    let lenient = AnalysisEngine.eppoSequential.reading(test, settings: settings)
    #expect(lenient?.marks.map(\.status) == ["positive"])
    #expect(lenient?.call == .ship("B"))
    #expect(lenient?.rule.contains("80% sequential confidence interval") == true)
    #expect(lenient?.rule.contains("tuned for 10,000 subjects") == true)
  }

  @Test func aControlWithoutConversionsHasNoLiftToMark() {
    let test = experiment([conversionVariant("A", conversions: 0, of: 1_000), conversionVariant("B", conversions: 30, of: 1_000)])
    let reading = EppoResultsPage().reading(test, settings: settings())
    #expect(reading.marks.map(\.status) == ["none"])
    #expect(reading.marks.first?.figure == nil)
    #expect(reading.call == .keepRunning)
  }

  @Test func eppoTunesItsSequenceForTenThousandWhereGrowthBookTunesForFiveThousand() {
    let settings = AnalysisSettings.standard
    #expect(settings.value(.tuningParameter, for: .eppoSequential) == 10_000)
    #expect(settings.value(.tuningParameter, for: .gbstatsSequential) == 5_000)
    #expect(settings.value(.confidenceLevel, for: .eppoSequential) == 0.95)
  }
}
