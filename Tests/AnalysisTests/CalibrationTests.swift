import Analysis
import Foundation
import Results
import ScenarioFormat
import Simulation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func committedScenario(_ name: String) throws -> Scenario {
  try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path).scenario
}

/// Every replication of a scenario, analysed.
func analysedReplications(_ scenario: Scenario, count: Int) async -> [ResultsDocument] {
  let simulator = Simulator(plan: SimulationPlan(scenario))
  let analyzer = ExperimentAnalyzer(settings: scenario.analysis)
  var documents: [ResultsDocument] = []
  for replication in 0..<count {
    let tally = await simulator.run(replication: replication, threads: 2)
    documents.append(analyzer.analyze(ResultsDocument(plan: simulator.plan, tally: tally, replications: count)))
  }
  return documents
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

  /// 95% intervals for a true lift hold it in 94% to 96% of replications.
  @Test func intervalsCoverTheTrueLift() async throws {
    let replications = 4000
    let documents = await analysedReplications(try committedScenario("true-effect"), count: replications)
    let calibration = CalibrationSummary.calibrate(documents, alpha: 0.05)
    for metric in calibration.experiments[0].metrics {
      let comparison = metric.comparisons[0]
      let coverage = try #require(comparison.coverage)
      #expect((0.94...0.96).contains(coverage), "\(metric.metric): coverage \(coverage)")
      #expect(metric.trueWinner == "Carousel")
    }
    #expect(abs(try #require(calibration.experiments[0].metrics[0].comparisons[0].trueLift) - 0.2) < 1e-12)
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
    // The always-valid p-value is a running minimum: it never rises.
    for document in documents.prefix(50) {
      let looks = document.experiments[0].analysis[0].comparisons[0].looks
      #expect(looks.count == 21)
      #expect(zip(looks, looks.dropFirst()).allSatisfy { ($1.alwaysValidPValue ?? 1) <= ($0.alwaysValidPValue ?? 1) })
    }
  }
}
