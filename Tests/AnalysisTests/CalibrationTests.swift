import Analysis
import Foundation
import Platforms
import Results
import ScenarioFormat
import Simulation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func committedScenario(_ name: String) throws -> Scenario {
  try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path).scenario
}

/// Every replication of a scenario, counted but not yet analysed.
func replicationDocuments(_ scenario: Scenario, count: Int) async -> [ResultsDocument] {
  let simulator = Simulator(plan: SimulationPlan(scenario))
  var documents: [ResultsDocument] = []
  for replication in 0..<count {
    let tally = await simulator.run(replication: replication, threads: 2)
    documents.append(ResultsDocument(plan: simulator.plan, tally: tally, replications: count))
  }
  return documents
}

/// Every replication of a scenario, analysed.
func analysedReplications(_ scenario: Scenario, count: Int) async -> [ResultsDocument] {
  let analyzer = ExperimentAnalyzer(settings: scenario.analysis)
  return await replicationDocuments(scenario, count: count).map(analyzer.analyze)
}

/// The coverage of each metric's first comparison, with `method`'s intervals.
func coverages(_ documents: [ResultsDocument], scenario: Scenario, method: AnalysisSettings.LiftInterval) throws -> [Double] {
  var settings = scenario.analysis
  settings.liftInterval = method
  let analyzer = ExperimentAnalyzer(settings: settings)
  let calibration = CalibrationSummary.calibrate(documents.map(analyzer.analyze), alpha: settings.alpha)
  return try calibration.experiments[0].metrics.map { try #require($0.comparisons[0].coverage) }
}

/// The bounds of a 99% interval for a binomial share p over n trials.
func binomialInterval99(p: Double, n: Int) -> ClosedRange<Double> {
  let half = 2.5758 * (p * (1 - p) / Double(n)).squareRoot()
  return (p - half)...(p + half)
}

/// The bench is calibrated: on scenarios whose truth is known, its errors
/// happen as often as the statistics promise.
@Suite struct CalibrationTests {
  /// An A/A test declares a difference in alpha of the replications.
  @Test func anAATestHasAFalsePositiveRateOfAlpha() async throws {
    let replications = 2000
    let documents = await analysedReplications(try committedScenario("aa-test"), count: replications)
    let calibration = CalibrationSummary.calibrate(documents, alpha: 0.05)
    let metric = calibration.experiments[0].metrics[0]
    let comparison = metric.comparisons[0]
    #expect(comparison.trueLift == 0)
    #expect(metric.trueWinner == nil)
    #expect(binomialInterval99(p: 0.05, n: replications).contains(comparison.significantRate))
    #expect(metric.noWinnerRate + metric.winnerRates.map(\.rate).reduce(0, +) + metric.notTrustworthyRate == 1)
    // An A/A winner is a false positive in the positive direction: about half of them.
    #expect(metric.correct.rate >= 1 - comparison.significantRate)
    #expect(metric.correct.count + metric.wrong.count + metric.abstained.count == replications)
  }

  /// 95% intervals for a true lift hold it in 94% to 96% of replications, by
  /// either method, on the same replications.
  @Test func intervalsCoverTheTrueLift() async throws {
    let replications = 4000
    let scenario = try committedScenario("true-effect")
    let counted = await replicationDocuments(scenario, count: replications)
    let analyzer = ExperimentAnalyzer(settings: scenario.analysis)
    let calibration = CalibrationSummary.calibrate(counted.map(analyzer.analyze), alpha: 0.05)
    for metric in calibration.experiments[0].metrics {
      #expect(metric.trueWinner == "Carousel")
    }
    #expect(abs(try #require(calibration.experiments[0].metrics[0].comparisons[0].trueLift) - 0.2) < 1e-12)
    for method in AnalysisSettings.LiftInterval.allCases {
      for (metric, coverage) in zip(["converted", "revenue"], try coverages(counted, scenario: scenario, method: method)) {
        #expect((0.94...0.96).contains(coverage), "\(method), \(metric): coverage \(coverage)")
      }
    }
  }

  /// With 20 devices an arm the delta method's interval loses its coverage;
  /// the ratio intervals keep theirs within the 99% binomial interval of 95%.
  @Test func ratioIntervalsCoverTheTruthInSmallSamples() async throws {
    let replications = 2000
    var scenario = try committedScenario("true-effect")
    scenario.devices = 40
    let counted = await replicationDocuments(scenario, count: replications)
    let ratio = try coverages(counted, scenario: scenario, method: .ratio)
    let delta = try coverages(counted, scenario: scenario, method: .delta)
    for (metric, coverage) in zip(["converted", "revenue"], ratio) {
      #expect(binomialInterval99(p: 0.95, n: replications).contains(coverage), "ratio, \(metric): \(coverage)")
    }
    // The delta method's rate interval falls short of the band (92.4% here).
    #expect(delta[0] < binomialInterval99(p: 0.95, n: replications).lowerBound, "delta: \(delta)")
  }
}

/// A guardrail declares a variant safe on a metric when its loss is below the
/// margin: a variant whose true loss is exactly the margin is declared safe in
/// alpha of the replications, one that loses nothing in most.
@Suite struct GuardrailCalibrationTests {
  @Test func aVariantOnTheMarginIsDeclaredSafeInAlphaOfReplications() async throws {
    let replications = 2000
    let documents = await analysedReplications(try committedScenario("guardrail"), count: replications)
    let metrics = CalibrationSummary.calibrate(documents, alpha: 0.05).experiments[0].metrics
    #expect(metrics.map(\.metric) == ["converted", "revenue"])
    #expect(metrics[0].comparisons.allSatisfy { $0.safeRate == nil })
    let revenue = metrics[1].comparisons
    #expect(revenue.map(\.variant) == ["Discount", "Bundle"])
    #expect(abs(try #require(revenue[0].trueLift) + 0.05) < 1e-12)
    let falseSafe = try #require(revenue[0].safeRate)
    #expect(binomialInterval99(p: 0.05, n: replications).contains(falseSafe), "false-safe rate \(falseSafe)")
    #expect(try #require(revenue[1].safeRate) > 0.9)
  }
}

/// Peeking every day inflates false positives; always-valid p-values do not.
@Suite struct PeekingTests {
  @Test func dailyLooksInflateOrdinaryPValuesButNotAlwaysValidOnes() async throws {
    let replications = 1000
    let documents = await analysedReplications(try committedScenario("peeking"), count: replications)
    let comparison = CalibrationSummary.calibrate(documents, alpha: 0.05).experiments[0].metrics[0].comparisons[0]
    let peeking = try #require(comparison.peekingSignificantRate)
    let alwaysValid = try #require(comparison.alwaysValidSignificantRate)
    #expect(peeking > binomialInterval99(p: 0.05, n: replications).upperBound)
    #expect(alwaysValid <= binomialInterval99(p: 0.05, n: replications).upperBound)
    #expect(alwaysValid < peeking)
    // Alpha spending over the same looks keeps the false-positive rate at alpha.
    for rate in [comparison.obrienFlemingSignificantRate, comparison.pocockSignificantRate] {
      let crossed = try #require(rate)
      #expect(binomialInterval99(p: 0.05, n: replications).contains(crossed), "\(crossed)")
    }
    // The always-valid p-value is a running minimum: it never rises.
    for document in documents.prefix(50) {
      let looks = document.experiments[0].analysis[0].comparisons[0].looks
      #expect(looks.count == 21)
      #expect(zip(looks, looks.dropFirst()).allSatisfy { ($1.alwaysValidPValue ?? 1) <= ($0.alwaysValidPValue ?? 1) })
    }
  }
}
