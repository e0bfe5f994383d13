import Analysis
import Results
import ScenarioFormat
import Statistics
import Testing

/// A variant with one continuous metric.
private func amountVariant(_ name: String, n: Int, mean: Double, variance: Double, trueLift: Double? = 0) -> VariantResult {
  VariantResult(
    name: name, weight: 1, exposed: n, contaminated: 0, firstExposed: n, expectedFirstExposed: nil,
    metrics: [
      MetricSummary(
        name: "revenue", isConversion: false, n: n, conversions: nil, mean: n > 0 ? mean : nil,
        variance: n > 1 ? variance : nil, trueMean: nil, trueLift: trueLift)
    ])
}

/// The analysis at the edges of its inputs: a baseline that never converts,
/// an empty arm, and replications whose verdicts must be counted apart.
@Suite struct EdgeCaseTests {
  /// 0 of 1,042 against 48 of 958: the test is overwhelming, the relative lift
  /// has no value, and the verdict must not depend on it.
  @Test func aZeroBaselineStillHasAWinnerAndAnUnboundedLift() throws {
    let analysed = ExperimentAnalyzer(settings: settings(effect: 0.1)).analyze(experiment([
      conversionVariant("Control", conversions: 0, of: 1042),
      conversionVariant("Treatment", conversions: 48, of: 958, trueLift: nil),
    ]))
    let analysis = try #require(analysed.analysis.first)
    let comparison = analysis.comparisons[0]
    #expect(try #require(comparison.test.pValue) < 1e-10)
    #expect(comparison.lift == nil)
    #expect(comparison.liftIsUnbounded)
    #expect(comparison.meanDifference == 48.0 / 958)
    #expect(analysis.verdict == .winner("Treatment"))
  }

  /// At a baseline of 0 every relative lift is 0, so power has no target
  /// unless the metric names an absolute difference; with 0.01 it is the
  /// two-proportion calculation from 0 to 1% (780 devices an arm, statsmodels'
  /// fixtures); a smaller difference leaves the arms underpowered, which no
  /// longer vetoes the significant result but prices it in type S and M errors.
  @Test func aZeroBaselineTakesItsPowerFromAnAbsoluteDifference() throws {
    let variants = [
      conversionVariant("Control", conversions: 0, of: 1042), conversionVariant("Treatment", conversions: 48, of: 958, trueLift: nil),
    ]
    let relative = try #require(ExperimentAnalyzer(settings: settings(effect: 0.1)).analyze(experiment(variants)).analysis.first)
    #expect(relative.power?.requiredPerVariant == nil)
    #expect(relative.power?.target == .lift(0.1))
    var absolute = settings(effect: 0.1)
    absolute.minimumDetectableDifferences = ["converted": 0.01]
    let analysis = try #require(ExperimentAnalyzer(settings: absolute).analyze(experiment(variants)).analysis.first)
    let power = try #require(analysis.power)
    #expect(power.target == .difference(0.01))
    #expect(power.requiredPerVariant == 780)
    #expect(power.achieved == Power.achieved(baseline: 0, treatment: 0.01, perGroup: 958, alpha: 0.05))
    #expect(analysis.verdict == .winner("Treatment"))
    absolute.minimumDetectableDifferences = ["converted": 0.005]
    let small = try #require(ExperimentAnalyzer(settings: absolute).analyze(experiment(variants)).analysis.first)
    let required = try #require(Power.sampleSize(baseline: 0, treatment: 0.005, alpha: 0.05, power: 0.8))
    #expect(small.power?.requiredPerVariant == required)
    #expect(required > 958)
    #expect(small.verdict == .winner("Treatment"))
    #expect(small.verdictText == "winner")
    let comparison = small.comparisons[0]
    #expect(comparison.decision == .ship)
    let rate = 48.0 / 958
    let standardError = (rate * (1 - rate) / 958).squareRoot()
    #expect(abs(try #require(comparison.standardError) - standardError) < 1e-15)
    let design = try #require(Retrodesign(difference: 0.005, standardError: standardError, alpha: 0.05))
    #expect(comparison.designErrors == DesignErrors(power: design.power, typeS: design.typeS, exaggeration: design.exaggeration))
  }

  /// Below the minimum sample a comparison keeps its point estimates and
  /// loses its inference; at the minimum it has both.
  @Test func tooFewDevicesWithholdTheTestAndTheDecision() throws {
    let analysed = ExperimentAnalyzer(settings: settings(correction: .holm)).analyze(experiment([
      conversionVariant("A", conversions: 1, of: 10), conversionVariant("Small", conversions: 8, of: 9),
      conversionVariant("Enough", conversions: 9, of: 10),
    ]))
    let analysis = try #require(analysed.analysis.first)
    let small = analysis.comparisons[0], enough = analysis.comparisons[1]
    #expect(small.tooFewDevices && !enough.tooFewDevices)
    #expect(small.test.pValue == nil && small.adjustedPValue == nil && small.liftInterval == nil && small.difference == nil)
    #expect(small.probabilityToBeatBaseline == nil && small.expectedLoss == nil)
    let smallMean: Double = 8.0 / 9
    let lift = try #require(small.lift), meanDifference = try #require(small.meanDifference)
    #expect(abs(lift - (smallMean / 0.1 - 1)) < 1e-12)
    #expect(abs(meanDifference - (smallMean - 0.1)) < 1e-12)
    // Alone in the family, Enough's p-value is not adjusted.
    #expect(enough.adjustedPValue == enough.test.pValue && enough.liftInterval != nil)
    // The small arm withholds its own decision, not its neighbour's.
    #expect(small.decision == .notTrustworthy(.tooFewDevices(variant: "Small", devices: 9, minimum: 10)))
    #expect(enough.decision == .ship)
    #expect(analysis.verdict == .winner("Enough"))
    let alone = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("A", conversions: 1, of: 10), conversionVariant("Small", conversions: 8, of: 9),
    ])).analysis[0]
    #expect(alone.verdictText
      == "not trustworthy: too few devices: Small has 9, fewer than the 10 per variant a test needs (analysis.minimumDevicesPerVariant)")
  }

  @Test func winnersAreRankedOnTheDifferenceOfMeans() throws {
    let analysed = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      conversionVariant("A", conversions: 1000, of: 10_000),
      conversionVariant("B", conversions: 1300, of: 10_000),
      conversionVariant("C", conversions: 1200, of: 10_000),
    ]))
    let comparisons = analysed.analysis[0].comparisons
    #expect(comparisons.map(\.meanDifference) == [0.13 - 0.1, 0.12 - 0.1])
    #expect(comparisons.allSatisfy { !$0.liftIsUnbounded })
    #expect(analysed.analysis[0].verdict == .winner("B"))
  }

  /// Fisher's test would give an empty arm p = 1 and keep it in Holm's
  /// family; Welch gives no p-value. One rule for both: no p-value, and the
  /// family is the comparisons that have one.
  @Test func anEmptyArmHasNoPValueAndLeavesTheCorrectionFamily() throws {
    let conversions = ExperimentAnalyzer(settings: settings(correction: .holm)).analyze(experiment([
      conversionVariant("A", conversions: 100, of: 1000),
      conversionVariant("Empty", conversions: 0, of: 0),
      conversionVariant("C", conversions: 140, of: 1000),
    ])).analysis[0].comparisons
    let amounts = ExperimentAnalyzer(settings: settings(correction: .holm)).analyze(experiment([
      amountVariant("A", n: 1000, mean: 2, variance: 4),
      amountVariant("Empty", n: 0, mean: 0, variance: 0),
      amountVariant("C", n: 1000, mean: 2.4, variance: 4),
    ])).analysis[0].comparisons
    for comparisons in [conversions, amounts] {
      #expect(comparisons[0].test.pValue == nil)
      #expect(comparisons[0].adjustedPValue == nil)
      let p = try #require(comparisons[1].test.pValue)
      // Holm over a family of one leaves the p-value as it is.
      #expect(comparisons[1].adjustedPValue == p)
      #expect(comparisons[0].meanDifference == nil)
    }
  }

  /// Every device of both arms has the same amount: Welch's test is
  /// undefined, so the verdict says so instead of "no winner", and no
  /// interval claims a certainty the sample does not have.
  @Test func constantAmountsGiveAnUndefinedTestAndNoZeroWidthInterval() throws {
    let analysis = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      amountVariant("A", n: 50, mean: 1.0, variance: 0),
      amountVariant("B", n: 50, mean: 1.1, variance: 0, trueLift: 0.1),
    ])).analysis[0]
    #expect(analysis.verdict == .notTrustworthy(.undefinedTest(variant: "B", test: "welch-t")))
    #expect(analysis.isAbstention)
    #expect(analysis.estimates == [nil, nil])
    let comparison = analysis.comparisons[0]
    #expect(comparison.test.pValue == nil)
    #expect(comparison.liftInterval == nil)
    #expect(abs(try #require(comparison.lift) - 0.1) < 1e-12)
    var delta = settings()
    delta.liftInterval = .delta
    // The delta method would have printed [+10%, +10%].
    let deltaComparison = ExperimentAnalyzer(settings: delta).analyze(experiment([
      amountVariant("A", n: 50, mean: 1.0, variance: 0), amountVariant("B", n: 50, mean: 1.1, variance: 0),
    ])).analysis[0].comparisons[0]
    #expect(deltaComparison.liftInterval?.lower == deltaComparison.liftInterval?.upper)
  }

  /// Every device converts in both arms: the intervals keep a width.
  @Test func allConvertingArmsKeepIntervalsWithAWidth() throws {
    let analysis = ExperimentAnalyzer(settings: settings(effect: 10)).analyze(experiment([
      conversionVariant("A", conversions: 10, of: 10), conversionVariant("B", conversions: 10, of: 10),
    ])).analysis[0]
    let comparison = analysis.comparisons[0]
    let interval = try #require(comparison.liftInterval)
    #expect(interval.lower < 0 && interval.upper > 0 && interval.lower >= -1)
    let difference = try #require(comparison.difference)
    #expect(difference.lower < 0 && difference.upper > 0)
    #expect(analysis.estimates.allSatisfy { ($0?.lower ?? 1) < ($0?.upper ?? 0) })
    #expect(analysis.verdict == .noWinner)
  }

  /// The always-valid test's mixture is τ = alwaysValidMixture × the
  /// baseline's mean, or the minimum detectable effect's lift without it.
  @Test func theAlwaysValidMixtureIsTheScenariosChoice() throws {
    let days = [(100, 10, 12), (200, 20, 26), (300, 30, 41)].map { n, control, treated in
      [conversionVariant("A", conversions: control, of: n).metrics, conversionVariant("B", conversions: treated, of: n).metrics]
    }
    var measured = experiment([
      conversionVariant("A", conversions: 30, of: 300), conversionVariant("B", conversions: 41, of: 300),
    ])
    measured.dailyMetrics = days
    func alwaysValid(mixture: Double?) -> [Double?] {
      var settings = settings(effect: 0.5)
      settings.dailyLooks = true
      settings.alwaysValidMixture = mixture
      return ExperimentAnalyzer(settings: settings).analyze(measured).analysis[0].comparisons[0].looks.map(\.alwaysValidPValue)
    }
    func byHand(scale: Double) -> [Double?] {
      var test = SequentialTest(mixtureVariance: (scale * 0.1) * (scale * 0.1))
      return days.map { day in
        let control = day[0][0], treated = day[1][0]
        test.look(
          estimate: treated.mean! - control.mean!,
          variance: control.variance! / Double(control.n) + treated.variance! / Double(treated.n))
        return test.pValue
      }
    }
    #expect(alwaysValid(mixture: nil) == byHand(scale: 0.5))
    #expect(alwaysValid(mixture: 0.05) == byHand(scale: 0.05))
    #expect(alwaysValid(mixture: 0.05) != alwaysValid(mixture: nil))
  }

  /// A guardrail metric gets a one-sided test per variant against its
  /// margin; other metrics get none.
  @Test func guardrailsTestEachVariantAgainstTheMargin() throws {
    var guarded = settings()
    guarded.guardrails = ["revenue": 0.05]
    let analysis = ExperimentAnalyzer(settings: guarded).analyze(experiment([
      amountVariant("A", n: 5000, mean: 10, variance: 25),
      amountVariant("Same", n: 5000, mean: 10, variance: 25),
      amountVariant("Worse", n: 5000, mean: 9, variance: 25),
    ])).analysis[0]
    let same = try #require(analysis.comparisons[0].nonInferiority)
    let worse = try #require(analysis.comparisons[1].nonInferiority)
    let expected = NonInferiority.means(
      control: SampleSummary(count: 5000, mean: 10, variance: 25), treatment: SampleSummary(count: 5000, mean: 10, variance: 25),
      margin: 0.05)
    #expect(same.test.pValue == expected.pValue)
    #expect(same.test.test == "non-inferiority-log-ratio-t")
    #expect(same.isSafe && !worse.isSafe)
    #expect(same.margin == 0.05)
    let unguarded = ExperimentAnalyzer(settings: settings()).analyze(experiment([
      amountVariant("A", n: 50, mean: 10, variance: 25), amountVariant("B", n: 50, mean: 10, variance: 25),
    ])).analysis[0]
    #expect(unguarded.comparisons[0].nonInferiority == nil)
  }

  /// "Not trustworthy" is neither right nor wrong: with no true winner it used
  /// to count as a correct "no winner".
  @Test func calibrationCountsAbstentionsApartWithIntervals() throws {
    let analyzer = ExperimentAnalyzer(settings: settings())
    // No variant truly beats the baseline here.
    let noWinner = analyzer.analyze(experiment([
      conversionVariant("A", conversions: 100, of: 1000), conversionVariant("B", conversions: 104, of: 1000),
    ]))
    let falseWinner = analyzer.analyze(experiment([
      conversionVariant("A", conversions: 100, of: 1000), conversionVariant("B", conversions: 160, of: 1000),
    ]))
    var mismatch = noWinner
    mismatch.variants[1].firstExposed = 700
    mismatch.variants[1].weight = 1
    let untrustworthy = analyzer.analyze(mismatch)
    #expect(noWinner.analysis[0].verdict == .noWinner)
    #expect(falseWinner.analysis[0].verdict == .winner("B"))
    #expect(untrustworthy.analysis[0].isAbstention)
    let documents = [noWinner, noWinner, falseWinner, untrustworthy].map { experiment in
      ResultsDocument(
        scenario: "edges", seed: 1, devices: 4000, days: 1, replications: 4, launches: 0, stabilizedDevices: 0,
        experiments: [experiment], conflicts: [], calibration: nil)
    }
    let metric = CalibrationSummary.calibrate(documents, alpha: 0.05).experiments[0].metrics[0]
    #expect(metric.trueWinner == nil)
    #expect([metric.correct.count, metric.wrong.count, metric.abstained.count] == [2, 1, 1])
    #expect(metric.correct.of == 4)
    // Wilson's 95% interval for 2 of 4, from scipy's binomtest(2, 4).proportion_ci(method="wilson").
    #expect(abs(try #require(metric.correct.lower) - 0.15003898915214953) < 1e-12)
    #expect(abs(try #require(metric.correct.upper) - 0.8499610108478505) < 1e-12)
  }
}
