import Analysis
import Results
import ScenarioFormat
import Statistics
import Testing

/// A variant with one conversion metric.
func conversionVariant(_ name: String, conversions: Int, of n: Int, weight: Int = 1, trueLift: Double? = 0) -> VariantResult {
  let summary = SampleSummary(successes: conversions, trials: n)
  return VariantResult(
    name: name, weight: weight, exposed: n, contaminated: 0, firstExposed: n, expectedFirstExposed: nil,
    metrics: [
      MetricSummary(
        name: "converted", isConversion: true, n: n, conversions: conversions, mean: n > 0 ? summary.mean : nil,
        variance: n > 1 ? summary.variance : nil, trueMean: nil, trueLift: trueLift)
    ])
}

func experiment(_ variants: [VariantResult]) -> ExperimentResult {
  ExperimentResult(
    name: "Paywall", source: "local", baseline: variants[0].name, variants: variants, mixedDevices: 0, transitions: [],
    dailyNewExposures: variants.map { _ in [] }, dailyMetrics: [], srm: nil, analysis: [])
}

/// Three variations, 10,000 devices an arm, as every page that marks each metric on its own calls
/// them (`MarkedPageCall`): both treatments clearly ahead (the larger lift ships), both clearly behind
/// (the baseline stays), one behind and one level (keep running).
func markedPageCalls() -> [(experiment: ExperimentResult, call: EngineCall)] {
  func arms(_ b: Int, _ c: Int) -> ExperimentResult {
    experiment([
      conversionVariant("A", conversions: 1000, of: 10_000), conversionVariant("B", conversions: b, of: 10_000),
      conversionVariant("C", conversions: c, of: 10_000),
    ])
  }
  return [(arms(1200, 1300), .ship("C")), (arms(800, 700), .keepBaseline), (arms(800, 1010), .keepRunning)]
}

func settings(correction: AnalysisSettings.Correction = .none, effect: Double = 0.5) -> AnalysisSettings {
  AnalysisSettings(
    alpha: 0.05, correction: correction, attribution: .firstExposure, dailyLooks: false,
    minimumDetectableEffect: effect, power: 0.8)
}

@Suite struct ExperimentAnalyzerTests {
  @Test func theWinnerIsTheSignificantVariantWithTheBestLift() throws {
    let analysed = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("Classic", conversions: 1000, of: 10_000),
      conversionVariant("Bold", conversions: 1200, of: 10_000, trueLift: 0.2),
      conversionVariant("Bolder", conversions: 1300, of: 10_000, trueLift: 0.3),
      conversionVariant("Quiet", conversions: 700, of: 10_000, trueLift: -0.3),
    ]))
    let analysis = try #require(analysed.analysis.first)
    #expect(analysis.comparisons.map(\.variant) == ["Bold", "Bolder", "Quiet"])
    #expect(analysis.comparisons.allSatisfy { ($0.adjustedPValue ?? 1) < 0.001 })
    #expect(analysis.verdict == .winner("Bolder"))
    #expect(analysis.trueWinner == "Bolder")
    #expect(analysis.omnibus.test == "chi-square-independence")
    #expect(analysis.omnibus.degreesOfFreedom == 3)
    let bold = analysis.comparisons[0]
    #expect(bold.test.test == "two-proportion-z")
    #expect(abs(try #require(bold.lift) - 0.2) < 1e-12)
    #expect(try #require(bold.probabilityToBeatBaseline) > 0.999)
    let difference = try #require(ProportionTests.differenceInterval(
      controlSuccesses: 1000, controlTrials: 10_000, treatmentSuccesses: 1200, treatmentTrials: 10_000, confidence: 0.95))
    #expect(bold.difference == Estimate(value: 0.12 - 0.1, lower: difference.lower, upper: difference.upper))
  }

  @Test func onlyANegativeSignificantEffectIsNoWinner() throws {
    let analysed = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("Classic", conversions: 1000, of: 10_000),
      conversionVariant("Quiet", conversions: 700, of: 10_000),
    ]))
    #expect(analysed.analysis[0].verdict == .noWinner)
    #expect(analysed.analysis[0].comparisons[0].decision == .doNotShip(.worse))
    #expect(analysed.analysis[0].recommendation == .keepBaseline)
    #expect(analysed.analysis[0].trueWinner == nil)
  }

  @Test func theCorrectionCoversEveryComparisonOfTheExperiment() throws {
    let variants = [
      conversionVariant("A", conversions: 1000, of: 10_000), conversionVariant("B", conversions: 1060, of: 10_000),
      conversionVariant("C", conversions: 1090, of: 10_000),
    ]
    for correction in AnalysisSettings.Correction.allCases {
      let comparisons = ExperimentAnalyzer(settings: settings(correction: correction)).analyze(experiment(variants)).analysis[0].comparisons
      let raw = comparisons.map(\.test.pValue)
      let expected: [Double?]
      switch correction {
      case .none: expected = raw
      case .holm: expected = MultipleComparisons.holm(raw)
      case .benjaminiHochberg: expected = MultipleComparisons.benjaminiHochberg(raw)
      }
      #expect(comparisons.map(\.adjustedPValue) == expected, "\(correction)")
    }
  }

  @Test func smallCountsUseFishersExactTest() throws {
    let analysed = ExperimentAnalyzer(settings: settings(effect: 5)).analyze(experiment([
      conversionVariant("A", conversions: 1, of: 30), conversionVariant("B", conversions: 6, of: 30),
    ]))
    let comparison = analysed.analysis[0].comparisons[0]
    #expect(comparison.test.test == "fisher-exact")
    #expect(comparison.test.pValue == ProportionTests.fisherExact(a: 1, b: 29, c: 6, d: 24).pValue)
  }

  /// 1,000 devices an arm are far fewer than a 10% lift needs, yet +50% is
  /// significant: low power does not veto it; the decision ships and says
  /// what the low power costs at the planned lift.
  @Test func lowPowerDoesNotVetoASignificantResult() throws {
    let analysed = ExperimentAnalyzer(settings: settings(effect: 0.1)).analyze(experiment([
      conversionVariant("Classic", conversions: 100, of: 1000), conversionVariant("Bold", conversions: 150, of: 1000),
    ]))
    let analysis = analysed.analysis[0]
    let required = try #require(Power.sampleSize(baseline: 0.1, treatment: 0.11, alpha: 0.05, power: 0.8))
    #expect(analysis.power?.requiredPerVariant == required)
    #expect(required > 1000)
    #expect(analysis.verdict == .winner("Bold"))
    #expect(analysis.recommendation == .ship("Bold"))
    let comparison = analysis.comparisons[0]
    let standardError = (0.1 * 0.9 / 1000 + 0.15 * 0.85 / 1000).squareRoot()
    let design = try #require(Retrodesign(difference: 0.01, standardError: standardError, alpha: 0.05))
    let errors = try #require(comparison.designErrors)
    #expect(abs(errors.power - design.power) < 1e-12 && abs(errors.typeS - design.typeS) < 1e-12)
    #expect(abs(errors.exaggeration - design.exaggeration) < 1e-9)
    #expect(errors.power < 0.2 && errors.exaggeration > 2)
  }

  @Test func aSampleRatioMismatchMakesTheVerdictUntrustworthy() throws {
    let analysed = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("Classic", conversions: 1000, of: 10_000), conversionVariant("Bold", conversions: 1300, of: 9_000),
    ]))
    let srm = try #require(analysed.srm)
    #expect(srm.expected == [0.5, 0.5])
    #expect(srm.isMismatch)
    #expect(srm.pValue == GoodnessOfFit.pearson(observed: [10_000, 9_000], expectedShares: [0.5, 0.5]).pValue)
    #expect(analysed.analysis[0].verdict == .notTrustworthy(.sampleRatioMismatch(pValue: try #require(srm.pValue))))
  }

  @Test func edgeCasesGiveNullsNotNaN() throws {
    let analyzer = ExperimentAnalyzer(settings: settings())
    let none = analyzer.analyze(experiment([
      conversionVariant("A", conversions: 0, of: 500), conversionVariant("B", conversions: 0, of: 500),
    ])).analysis[0]
    #expect(none.omnibus.pValue == nil)
    #expect(none.comparisons[0].lift == nil)
    #expect(none.verdict == .noWinner)
    let all = analyzer.analyze(experiment([
      conversionVariant("A", conversions: 500, of: 500), conversionVariant("B", conversions: 500, of: 500),
    ])).analysis[0]
    // Every device converted: the margins allow one table only, so Fisher's test gives p = 1.
    #expect(all.comparisons[0].test == TestSummary(test: "fisher-exact", statistic: nil, degreesOfFreedom: nil, pValue: 1))
    #expect(all.comparisons[0].lift == 0)
    let alone = analyzer.analyze(experiment([conversionVariant("A", conversions: 10, of: 500)]))
    #expect(alone.analysis[0].comparisons.isEmpty)
    #expect(alone.analysis[0].omnibus.pValue == nil)
    #expect(alone.srm?.pValue == nil)
    let empty = analyzer.analyze(experiment([
      conversionVariant("A", conversions: 0, of: 0), conversionVariant("B", conversions: 0, of: 0),
    ])).analysis[0]
    #expect(empty.comparisons[0].test.pValue == nil)
    #expect(empty.comparisons[0].probabilityToBeatBaseline == nil)
  }
}
