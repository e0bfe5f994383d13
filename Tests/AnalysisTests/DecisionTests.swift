import Analysis
import Foundation
import Results
import ScenarioFormat
import Statistics
import Testing

/// The decision per variant and the recommendation per metric, branch by
/// branch, in docs/statistics.md's order.
@Suite struct DecisionTests {
  /// A contaminated arm is not trusted however significant it is, and the
  /// reason names the arm and its share; a clean significant arm still ships.
  @Test func contaminationIsNotTrustedAndACleanWinnerShips() throws {
    // Of the 10,000 devices first shown Dracula, 9,800 were shown another variant too.
    var dirty = conversionVariant("Dracula", conversions: 1400, of: 10_000, trueLift: -0.05)
    dirty.contaminated = 9_800
    let analysed = ExperimentAnalyzer(settings: settings(correction: .holm, effect: 0.1)).analyze(experiment([
      conversionVariant("Blue", conversions: 1000, of: 10_000),
      conversionVariant("Yellow", conversions: 1200, of: 10_000, trueLift: 0.08),
      dirty,
    ]))
    let analysis = analysed.analysis[0]
    #expect(analysis.comparisons[0].decision == .ship)
    #expect(analysis.comparisons[1].decision == .notTrustworthy(.contamination(variant: "Dracula", share: 0.98, devices: 9_800)))
    #expect(analysis.recommendation == .ship("Yellow"))
    #expect(analysis.verdict == .winner("Yellow"))
    // Excluding contaminated devices counts none of them: nothing to distrust.
    var excluding = settings(correction: .holm, effect: 0.1)
    excluding.attribution = .excludeContaminated
    let clean = ExperimentAnalyzer(settings: excluding).analyze(experiment([
      conversionVariant("Blue", conversions: 1000, of: 10_000), dirty,
    ])).analysis[0]
    #expect(clean.comparisons[0].decision == .ship)
  }

  /// At the threshold (5%) an arm is trusted; above it, not; and the baseline's
  /// contamination counts as the variant's does.
  @Test func theContaminationThresholdAppliesToBothArms() throws {
    func decision(baselineMixed: Int, variantMixed: Int) -> Decision {
      var baseline = conversionVariant("A", conversions: 1000, of: 10_000)
      baseline.contaminated = baselineMixed
      var variant = conversionVariant("B", conversions: 1300, of: 10_000, trueLift: 0.3)
      variant.contaminated = variantMixed
      return ExperimentAnalyzer(settings: settings()).analyze(experiment([baseline, variant])).analysis[0].comparisons[0].decision
    }
    #expect(ExperimentAnalyzer.contaminationThreshold == 0.05)
    #expect(decision(baselineMixed: 500, variantMixed: 0) == .ship)
    #expect(decision(baselineMixed: 501, variantMixed: 0)
      == .notTrustworthy(.contamination(variant: "A", share: 0.0501, devices: 501)))
    #expect(decision(baselineMixed: 0, variantMixed: 600)
      == .notTrustworthy(.contamination(variant: "B", share: 0.06, devices: 600)))
  }

  /// A sample ratio mismatch outranks every other reason and every ship.
  @Test func aSampleRatioMismatchOutranksEverything() throws {
    let analysis = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("Classic", conversions: 1000, of: 10_000), conversionVariant("Bold", conversions: 1300, of: 9_000),
    ])).analysis[0]
    guard case .notTrustworthy(.sampleRatioMismatch) = analysis.comparisons[0].decision else {
      Issue.record("expected a sample ratio mismatch, got \(analysis.comparisons[0].decision)")
      return
    }
    guard case .doNotTrust(.sampleRatioMismatch) = analysis.recommendation else {
      Issue.record("expected do not trust, got \(analysis.recommendation)")
      return
    }
  }

  /// Not significant: inconclusive with the devices the power calculation
  /// still asks for, or "do not ship" when the interval rules out the
  /// planned lift.
  @Test func aNonSignificantResultIsInconclusiveOrRuledOut() throws {
    let small = ExperimentAnalyzer(settings: settings(effect: 0.1)).analyze(experiment([
      conversionVariant("A", conversions: 100, of: 1000), conversionVariant("B", conversions: 105, of: 1000, trueLift: 0.05),
    ])).analysis[0]
    let required = try #require(Power.sampleSize(baseline: 0.1, treatment: 0.11, alpha: 0.05, power: 0.8))
    #expect(small.comparisons[0].decision == .inconclusive(devicesNeeded: required - 1000))
    #expect(small.recommendation == .keepRunning(devicesNeeded: required - 1000))
    #expect(small.verdict == .noWinner)
    #expect(small.comparisons[0].designErrors == nil)

    let large = ExperimentAnalyzer(settings: settings(effect: 0.1)).analyze(experiment([
      conversionVariant("A", conversions: 10_000, of: 100_000),
      conversionVariant("B", conversions: 10_050, of: 100_000, trueLift: 0),
    ])).analysis[0]
    let upper = try #require(large.comparisons[0].liftInterval?.upper)
    #expect(upper < 0.1)
    #expect(large.comparisons[0].decision == .doNotShip(.plannedEffectRuledOut(upper: upper, planned: 0.1)))
    #expect(large.recommendation == .keepBaseline)
  }

  /// With daily looks a significant final p-value ships only when some look
  /// crossed its O'Brien–Fleming boundary; otherwise it is what peeking
  /// finds, and not trusted.
  @Test func peekingWithoutCrossingTheBoundaryIsNotTrusted() throws {
    func analysed(treated: Int) -> MetricAnalysis {
      var measured = experiment([
        conversionVariant("A", conversions: 1000, of: 10_000),
        conversionVariant("B", conversions: treated, of: 10_000, trueLift: 0.1),
      ])
      measured.dailyMetrics = [
        [conversionVariant("A", conversions: 500, of: 5_000).metrics, conversionVariant("B", conversions: 500, of: 5_000).metrics],
        measured.variants.map(\.metrics),
      ]
      var daily = settings(effect: 0.1)
      daily.dailyLooks = true
      return ExperimentAnalyzer(settings: daily).analyze(measured).analysis[0]
    }
    let marginal = analysed(treated: 1085)
    let comparison = marginal.comparisons[0]
    let p = try #require(comparison.adjustedPValue)
    let boundary = try #require(comparison.looks.last?.obrienFlemingAlpha)
    #expect(boundary < p && p < 0.05)
    #expect(comparison.decision == .notTrustworthy(.peeking(firstDay: 1)))
    #expect(marginal.recommendation == .doNotTrust(.peeking(firstDay: 1)))
    let clear = analysed(treated: 1110)
    #expect(clear.comparisons[0].decision == .ship)
  }

  /// A variant that wins on one metric but is not shown safe on a guardrail
  /// metric is held; one shown safe ships.
  @Test func aGuardrailNotShownSafeHoldsTheShip() throws {
    func variant(_ name: String, conversions: Int, revenue: Double, trueLift: Double) -> VariantResult {
      var variant = conversionVariant(name, conversions: conversions, of: 10_000, trueLift: trueLift)
      variant.metrics.append(MetricSummary(
        name: "revenue", isConversion: false, n: 10_000, conversions: nil, mean: revenue, variance: 100, trueMean: nil,
        trueLift: 0))
      return variant
    }
    var guarded = settings(effect: 0.1)
    guarded.guardrails = ["revenue": 0.02]
    let analyses = ExperimentAnalyzer(settings: guarded).analyze(experiment([
      variant("A", conversions: 1000, revenue: 10, trueLift: 0), variant("B", conversions: 1300, revenue: 9.9, trueLift: 0.3),
    ])).analysis
    #expect(analyses[1].comparisons[0].nonInferiority?.isSafe == false)
    #expect(analyses[0].comparisons[0].decision == .doNotShip(.guardrail(metric: "revenue")))
    #expect(analyses[0].recommendation == .keepBaseline)
    let safe = ExperimentAnalyzer(settings: guarded).analyze(experiment([
      variant("A", conversions: 1000, revenue: 10, trueLift: 0), variant("B", conversions: 1300, revenue: 10.5, trueLift: 0.3),
    ])).analysis
    #expect(safe[1].comparisons[0].nonInferiority?.isSafe == true)
    #expect(safe[0].recommendation == .ship("B"))
  }

  /// The calibration counts each replication's recommendation once against
  /// the truth, and a significant decision against the true lift's sign.
  @Test func calibrationCountsRecommendationsAgainstTheTruth() throws {
    let analyzer = ExperimentAnalyzer(settings: settings(effect: 0.1))
    func document(_ variants: [VariantResult]) -> ResultsDocument {
      ResultsDocument(
        scenario: "s", seed: 1, devices: 1, days: 1, replications: 4, launches: 0, stabilizedDevices: 0,
        experiments: [analyzer.analyze(experiment(variants))], conflicts: [], calibration: nil)
    }
    let rightShip = document([
      conversionVariant("A", conversions: 1000, of: 10_000), conversionVariant("B", conversions: 1300, of: 10_000, trueLift: 0.1),
    ])
    let wrongShipWrongSign = document([
      conversionVariant("A", conversions: 1000, of: 10_000), conversionVariant("B", conversions: 1300, of: 10_000, trueLift: -0.1),
    ])
    let keepRunning = document([
      conversionVariant("A", conversions: 100, of: 1000), conversionVariant("B", conversions: 101, of: 1000, trueLift: 0.1),
    ])
    let keepBaseline = document([
      conversionVariant("A", conversions: 1300, of: 10_000), conversionVariant("B", conversions: 1000, of: 10_000, trueLift: 0.1),
    ])
    let calibration = CalibrationSummary.calibrate([rightShip, wrongShipWrongSign, keepRunning, keepBaseline], alpha: 0.05)
    let decisions = try #require(calibration.experiments[0].metrics[0].decisions)
    #expect(decisions.rightShip.count == 1 && decisions.wrongShip.count == 1)
    #expect(decisions.inconclusive.count == 1 && decisions.keepBaseline.count == 1 && decisions.withheld.count == 0)
    // The wrong ship and the kept baseline (B significantly worse where it is truly better) have the wrong sign.
    #expect(decisions.wrongSign.count == 2)
    #expect(decisions.rightShip.of == 4)
    let interval = try #require(ProportionTests.wilsonInterval(successes: 1, trials: 4, confidence: 0.95))
    #expect(decisions.rightShip.lower == interval.lower && decisions.rightShip.upper == interval.upper)
  }
}

/// Quantiles of amounts counted in buckets: their intervals take the
/// buckets' edges, and the decision names the test that was run.
@Suite struct BucketedQuantileTests {
  /// A variant whose 1,000 amounts all fall in one bucket, [lower, upper],
  /// which stands for them as `value`.
  private func variant(_ name: String, value: Double, lower: Double, upper: Double) -> VariantResult {
    var variant = conversionVariant(name, conversions: 0, of: 1000, trueLift: 0)
    variant.distributions = [
      AmountDistribution(
        metric: "revenue", quantiles: [0.5], values: [value], counts: [1000], lowerEdges: [lower], upperEdges: [upper],
        trueLift: 0)
    ]
    return variant
  }

  /// Every amount of each arm falls in one bucket: read at the buckets'
  /// values the intervals had no width and the test no variance; read at
  /// their edges, each interval is its bucket and the z test is that of
  /// those intervals.
  @Test func aSpreadInsideOneBucketGetsTheBucketAsItsInterval() throws {
    let median = try #require(ExperimentAnalyzer(settings: settings()).analyze(experiment([
      variant("A", value: 100, lower: 99.6, upper: 100.4), variant("B", value: 100.8, lower: 100.4, upper: 101.2),
    ])).analysis.first { $0.quantile == 0.5 })
    #expect(median.estimates[0] == Estimate(value: 100, lower: 99.6, upper: 100.4))
    #expect(median.estimates[1] == Estimate(value: 100.8, lower: 100.4, upper: 101.2))
    let z = 1.959963984540054
    let control = NormalEstimate(value: 100, variance: pow(0.8 / (2 * z), 2))
    let treated = NormalEstimate(value: 100.8, variance: pow(0.8 / (2 * z), 2))
    let comparison = median.comparisons[0]
    #expect(comparison.test.test == "quantile-z")
    let expected = try #require(NormalEstimate.test(control: control, treatment: treated).pValue)
    #expect(abs(try #require(comparison.test.pValue) - expected) < 1e-12)
    #expect(expected > 1e-4)
  }

  /// An undefined quantile test says which test it was.
  @Test func anUndefinedQuantileTestNamesItsTest() throws {
    func constant(_ name: String) -> VariantResult {
      var variant = conversionVariant(name, conversions: 0, of: 100, trueLift: 0)
      variant.distributions = [
        AmountDistribution(metric: "revenue", quantiles: [0.5], values: [5], counts: [100], trueLift: 0)
      ]
      return variant
    }
    let analysis = try #require(ExperimentAnalyzer(settings: settings()).analyze(experiment([constant("A"), constant("B")]))
      .analysis.first { $0.quantile == 0.5 })
    #expect(analysis.comparisons[0].decision == .notTrustworthy(.undefinedTest(variant: "B", test: "quantile-z")))
    #expect(analysis.verdictText.contains("quantile-z of B against the baseline is undefined"))
    #expect(!analysis.verdictText.contains("Welch"))
  }
}

/// An amount whose arms are too small for its skewness marks its interval
/// and decision; a conversion, or an arm large enough, does not.
@Suite struct SkewWarningTests {
  private func amount(_ name: String, n: Int, mean: Double, skewness: Double?) -> VariantResult {
    var summary = MetricSummary(
      name: "revenue", isConversion: false, n: n, conversions: nil, mean: mean, variance: 100, trueMean: nil, trueLift: 0)
    summary.skewness = skewness
    return VariantResult(
      name: name, weight: 1, exposed: n, contaminated: 0, firstExposed: n, expectedFirstExposed: nil, metrics: [summary])
  }

  @Test func anArmBelowItsSkewnessNeedIsMarked() throws {
    #expect(SkewWarning.devicesPerSquaredSkewness == 25)
    let small = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      amount("A", n: 300, mean: 10, skewness: 3), amount("B", n: 300, mean: 12, skewness: 4),
    ])).analysis[0].comparisons[0]
    // A needs 225 and has 300; B needs 400 and has 300: B is the arm furthest below.
    #expect(small.skewWarning == SkewWarning(variant: "B", skewness: 4, devices: 300, needed: 400))
    let large = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      amount("A", n: 500, mean: 10, skewness: 3), amount("B", n: 500, mean: 12, skewness: -4),
    ])).analysis[0].comparisons[0]
    #expect(large.skewWarning == nil)
    let unknown = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      amount("A", n: 20, mean: 10, skewness: nil), amount("B", n: 20, mean: 12, skewness: nil),
    ])).analysis[0].comparisons[0]
    #expect(unknown.skewWarning == nil)
    let conversion = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("A", conversions: 10, of: 100), conversionVariant("B", conversions: 20, of: 100),
    ])).analysis[0].comparisons[0]
    #expect(conversion.skewWarning == nil)
  }
}
