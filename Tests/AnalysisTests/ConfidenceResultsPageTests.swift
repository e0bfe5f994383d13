import Foundation
import Results
import ScenarioFormat
import Statistics
import Testing

@testable import Analysis

/// Spotify Confidence's page as it decides: group-sequential reads towards the
/// planned sample, the risk-aware rule over success metrics and guardrails,
/// and the control kept once the plan is reached without a ship.
@Suite struct ConfidenceResultsPageTests {
  private func amount(_ name: String, n: Int, mean: Double, variance: Double) -> MetricSummary {
    MetricSummary(
      name: name, isConversion: false, n: n, conversions: nil, mean: mean, variance: variance, trueMean: nil, trueLift: nil)
  }

  @Test func readEveryDayTowardsThePlanAnAATestShipsAtMostAlphaOfTheTime() {
    // 400 A/A replications of 8 daily looks of 300 devices an arm at 20%, planned for all 8 days; and the
    // same tests read every day at a fixed horizon (no plan), which is peeking.
    var stream = SeededStream(state: 2026)
    var sequential = 0, peeking = 0
    let page = ConfidenceResultsPage()
    for _ in 0..<400 {
      let test = dailyConversionTest(looks: 8, perLook: 300, rate: 0.2, lift: 0, stream: &stream)
      if case .ship = page.firstCall(test, settings: settings(), devicesPerVariant: 8 * 300)?.call { sequential += 1 }
      let daily = (0..<8).lazy.map { page.call(test.look(day: $0), settings: settings(), devicesPerVariant: nil) }
      if daily.contains(where: { if case .ship = $0 { true } else { false } }) { peeking += 1 }
    }
    // A false ship needs an increase at one-sided 0.05: at most 20 of 400 expected, 33 is three standard errors
    // above; read daily at a fixed horizon the same test ships about three times as often.
    #expect(sequential <= 33, "shipped \(sequential) of 400 A/A tests read towards the plan")
    #expect(peeking > 2 * max(sequential, 10), "shipped \(peeking) of 400 A/A tests read daily at a fixed horizon")
  }

  @Test func theFirstCallIsWhatReadingEachDayInTurnCalls() {
    var stream = SeededStream(state: 99)
    let page = ConfidenceResultsPage()
    var calls = 0
    for replication in 0..<24 {
      let test = dailyConversionTest(looks: 6, perLook: 400, rate: 0.1, lift: replication % 3 == 0 ? 0 : 0.25, stream: &stream)
      let plan = replication % 2 == 0 ? 6 * 400 : 3 * 400
      let expected = (0..<6).lazy.compactMap { day -> (Int, EngineCall)? in
        let call = page.call(test.look(day: day), settings: settings(), devicesPerVariant: plan)
        return call == .keepRunning ? nil : (day, call)
      }.first
      let first = page.firstCall(test, settings: settings(), devicesPerVariant: plan)
      #expect(first?.day == expected?.0 && first?.call == expected?.1, "replication \(replication)")
      if first != nil { calls += 1 }
    }
    #expect(calls > 12)
  }

  @Test func aTrueLiftShipsBeforeThePlannedSample() {
    var stream = SeededStream(state: 5)
    var early = 0, shipped = 0
    for _ in 0..<100 {
      let test = dailyConversionTest(looks: 10, perLook: 1000, rate: 0.2, lift: 0.15, stream: &stream)
      guard let first = ConfidenceResultsPage().firstCall(test, settings: settings(), devicesPerVariant: 10_000) else { continue }
      if first.call == .ship("B") {
        shipped += 1
        if first.day < 9 { early += 1 }
      }
    }
    // A 15% lift on 20% is planned for with 10,000 devices an arm; most tests stop before the last day.
    #expect(shipped > 90, "shipped \(shipped) of 100")
    #expect(early > 70, "\(early) of 100 shipped before the last day")
  }

  @Test func atThePlannedSampleWithoutAShipThePageKeepsTheControl() {
    let flat = experiment([conversionVariant("A", conversions: 200, of: 1000), conversionVariant("B", conversions: 201, of: 1000)])
    let page = ConfidenceResultsPage()
    var daily = flat
    daily.dailyMetrics = [flat.variants.map(\.metrics)]
    #expect(page.call(daily, settings: settings(), devicesPerVariant: 1000) == .keepBaseline)
    #expect(page.call(daily, settings: settings(), devicesPerVariant: 5000) == .keepRunning)
    // Without daily counts the page is a fixed-horizon read, and no plan ends it.
    #expect(page.call(flat, settings: settings(), devicesPerVariant: 1000) == .keepRunning)
  }

  @Test func aGuardrailNotShownNonInferiorBlocksTheShip() {
    var guarded = settings()
    guarded.guardrails = ["revenue": 0.05]
    func arm(_ name: String, conversions: Int, revenue: Double) -> VariantResult {
      var variant = conversionVariant(name, conversions: conversions, of: 20_000)
      variant.metrics.append(amount("revenue", n: 20_000, mean: revenue, variance: 25))
      return variant
    }
    let page = ConfidenceResultsPage()
    let safe = experiment([arm("A", conversions: 4000, revenue: 10), arm("B", conversions: 4600, revenue: 10)])
    let harmful = experiment([arm("A", conversions: 4000, revenue: 10), arm("B", conversions: 4600, revenue: 9)])
    let unclear = experiment([arm("A", conversions: 4000, revenue: 10), arm("B", conversions: 4600, revenue: 9.55)])
    #expect(page.call(safe, settings: guarded) == .ship("B"))
    #expect(page.call(harmful, settings: guarded) == .keepBaseline)
    #expect(page.call(unclear, settings: guarded) == .keepRunning)
    let reading = page.reading(harmful, settings: guarded)
    #expect(reading.marks.map(\.status) == ["better", "inferior"])
    #expect(reading.marks.map(\.metric) == ["converted", "revenue"])
    #expect(reading.engine == "confidence")
    let lower = reading.marks[0].figure ?? .nan
    // The lift's lower end at z(1 − 0.05) (one treatment, one success metric): 15% less 1.645 standard errors.
    let se = (0.2 * 0.8 / 20_000 + 0.23 * 0.77 / 20_000).squareRoot()
    #expect(abs(lower - (0.03 - 1.6448536269514715 * se) / 0.2) < 1e-9)
  }

  /// A metric with a covariate is read by Confidence's CUPED (`ZTestLinreg`): the page's figure is the
  /// regression-adjusted test's, from sums rebuilt out of the summary's means, variances and covariance,
  /// and tighter than the plain test's when the covariate explains the metric.
  @Test func aCovariateIsRegressedOutAsZTestLinregDoes() throws {
    func arm(_ name: String, n: Int, mean: Double, covariateMean: Double) -> VariantResult {
      var variant = conversionVariant(name, conversions: 0, of: n)
      var metric = amount("revenue", n: n, mean: mean, variance: 4)
      metric.covariate = CovariateSummary(mean: covariateMean, variance: 9, covariance: 4.5)
      variant.metrics = [metric]
      return variant
    }
    let test = experiment([arm("A", n: 5000, mean: 10, covariateMean: 20), arm("B", n: 5000, mean: 10.1, covariateMean: 20.05)])
    let adjusted = try #require(ConfidenceResultsPage().reading(test, settings: settings()).marks.first?.figure)
    func sums(_ mean: Double, _ covariateMean: Double) -> ConfidenceSummary {
      let n = 5000.0, y = mean * n, x = covariateMean * n
      return ConfidenceSummary(
        n: 5000, sum: y, sumOfSquares: 4 * (n - 1) + y * y / n,
        feature: .init(sum: x, sumOfSquares: 9 * (n - 1) + x * x / n, crossSum: 4.5 * (n - 1) + x * y / n))
    }
    let rows = try ConfidenceZTest().compare(metrics: [.init(preference: .increase)], arms: [[sums(10, 20)], [sums(10.1, 20.05)]])
    let controlMean = 10.0
    #expect(abs(adjusted - rows[0].adjustedInterval.lower / controlMean) < 1e-12)
    var plain = test
    for index in plain.variants.indices { plain.variants[index].metrics[0].covariate = nil }
    let unadjusted = try #require(ConfidenceResultsPage().reading(plain, settings: settings()).marks.first?.figure)
    // The covariate correlates 0.75 with the metric (4.5 / √(9 · 4)): its slope removes 56% of the variance.
    let plainRows = try ConfidenceZTest().compare(
      metrics: [.init(preference: .increase)],
      arms: [[ConfidenceSummary(n: 5000, mean: 10, sampleVariance: 4)], [ConfidenceSummary(n: 5000, mean: 10.1, sampleVariance: 4)]])
    #expect(rows[0].standardError < plainRows[0].standardError)
    #expect(abs(unadjusted - plainRows[0].adjustedInterval.lower / controlMean) < 1e-12)
  }
}
