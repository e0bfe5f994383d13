import Foundation
import Results
import ScenarioFormat
import Statistics

/// Turns one experiment's counts into decisions: the sample ratio mismatch
/// check, each variant against the baseline on each metric with the
/// experiment's multiple-comparison correction, the power calculation, a
/// decision per variant (ship, do not ship, inconclusive, not trustworthy,
/// for the reason that most invalidates the comparison) and one
/// recommendation per metric. docs/statistics.md says which test is used
/// when and why the decision rule is what it is.
public struct ExperimentAnalyzer: Sendable {
  /// Below this p-value the sample ratio mismatch check fires.
  public static let mismatchThreshold = 0.001
  /// Above this share of an arm's counted devices shown another variant of
  /// the experiment, its comparisons are not trusted (docs/statistics.md).
  public static let contaminationThreshold = 0.05

  public let settings: AnalysisSettings
  private let bayesian = BetaBinomial()

  public init(settings: AnalysisSettings) {
    self.settings = settings
  }

  /// The document with every experiment analysed.
  public func analyze(_ document: ResultsDocument) -> ResultsDocument {
    var document = document
    document.experiments = document.experiments.map(analyze)
    return document
  }

  public func analyze(_ experiment: ExperimentResult) -> ExperimentResult {
    var experiment = experiment
    let srm = sampleRatioMismatch(experiment)
    experiment.srm = srm
    guard let baseline = experiment.variants.firstIndex(where: { $0.name == experiment.baseline }),
      let metricCount = experiment.variants.first?.metrics.count
    else { return experiment }
    let treatments = experiment.variants.indices.filter { $0 != baseline }
    let adjustments = (0..<metricCount).map { covariateAdjustment(experiment, metric: $0) }
    let spending = spendingBoundaries(experiment, metrics: metricCount, baseline: baseline, treatments: treatments)
    var comparisons = (0..<metricCount).map { metric in
      treatments.map {
        compare(
          experiment, metric: metric, baseline: baseline, treatment: $0, adjustment: adjustments[metric], spending: spending)
      }
    }
    let estimated = estimatedMetrics(experiment)
    comparisons += estimated.map { metric in
      treatments.map { compare(metric, in: experiment, baseline: baseline, treatment: $0) }
    }
    let winsorized = winsorizedMetrics(experiment)
    comparisons += winsorized.map { capped in
      treatments.map { compare(capped, metric: 0, baseline: baseline, treatment: $0, adjustment: nil) }
    }
    let flat = comparisons.flatMap { $0.map(\.test.pValue) }
    let adjusted: [Double?]
    switch settings.correction {
    case .none: adjusted = flat
    case .holm: adjusted = MultipleComparisons.holm(flat)
    case .benjaminiHochberg: adjusted = MultipleComparisons.benjaminiHochberg(flat)
    }
    for metric in comparisons.indices {
      for index in comparisons[metric].indices {
        comparisons[metric][index].adjustedPValue = adjusted[metric * treatments.count + index]
      }
    }
    experiment.analysis = (0..<metricCount).map { metric in
      conclude(
        experiment, metric: metric, baseline: baseline, comparisons: comparisons[metric], srm: srm,
        adjustment: adjustments[metric])
    }
    experiment.analysis += estimated.indices.map { index in
      conclude(
        estimated[index], in: experiment, baseline: baseline, comparisons: comparisons[metricCount + index], srm: srm)
    }
    experiment.analysis += winsorized.indices.map { index in
      var analysis = conclude(
        winsorized[index], metric: 0, baseline: baseline, comparisons: comparisons[metricCount + estimated.count + index],
        srm: srm, adjustment: nil)
      analysis.winsorize = experiment.variants[baseline].winsorized[index].percentile
      return analysis
    }
    holdShipsFailingGuardrails(&experiment.analysis)
    experiment.decision = ExperimentDecider(settings: settings).decide(experiment)
    experiment.engineReadings = settings.engines.compactMap { $0.reading(experiment, settings: settings) }
    if var enrollment = experiment.enrollment {
      func analysis(of variants: [VariantResult]) -> [MetricAnalysis] {
        analyze(ExperimentResult(
          name: experiment.name, source: experiment.source, baseline: experiment.baseline, variants: variants,
          mixedDevices: 0, transitions: [], dailyNewExposures: [], dailyMetrics: [], srm: nil, analysis: [])).analysis
      }
      enrollment.analysis = analysis(of: enrollment.variants)
      if settings.neverEnrolledAsBaseline, !enrollment.neverEnrolledAsBaseline.isEmpty {
        enrollment.neverEnrolledAsBaselineAnalysis = analysis(of: enrollment.neverEnrolledAsBaseline)
      }
      experiment.enrollment = enrollment
    }
    return experiment
  }

  /// First exposures against the split the configuration should produce: the
  /// simulation's history-aware expectation, or the variants' weights for real
  /// data; not computable when neither is known.
  private func sampleRatioMismatch(_ experiment: ExperimentResult) -> SRMResult {
    let observed = experiment.variants.map(\.firstExposed)
    let expected: [Double]
    if experiment.variants.allSatisfy({ $0.expectedFirstExposed != nil }) {
      expected = experiment.variants.map { $0.expectedFirstExposed! }
    } else if experiment.variants.allSatisfy({ $0.weight != nil }) {
      expected = experiment.variants.map { Double($0.weight!) }
    } else {
      return SRMResult(expected: [], statistic: nil, degreesOfFreedom: nil, pValue: nil, isMismatch: false)
    }
    let total = expected.reduce(0, +)
    let shares = total > 0 ? expected.map { $0 / total } : expected
    let result = GoodnessOfFit.pearson(observed: observed, expectedShares: shares)
    return SRMResult(
      expected: shares, statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue,
      isMismatch: result.pValue.map { $0 < Self.mismatchThreshold } ?? false)
  }

  /// The regression adjustment of a metric whose variants all carry its
  /// covariate, fitted over every variant; `nil` for a metric without one, or
  /// where the covariate does not vary.
  private func covariateAdjustment(_ experiment: ExperimentResult, metric: Int) -> FittedAdjustment? {
    var groups: [CovariateSample] = []
    for variant in experiment.variants {
      let summary = variant.metrics[metric]
      guard let covariate = summary.covariate else { return nil }
      groups.append(CovariateSample(
        outcome: sample(summary), covariateMean: covariate.mean ?? 0, covariateVariance: covariate.variance ?? 0,
        covariance: covariate.covariance ?? 0))
    }
    return RegressionAdjustment(groups: groups).map { FittedAdjustment(fit: $0, groups: groups) }
  }

  private func compare(
    _ experiment: ExperimentResult, metric: Int, baseline: Int, treatment: Int, adjustment: FittedAdjustment?,
    spending: [[Double]: SpendingBoundaries] = [:]
  ) -> Comparison {
    let control = experiment.variants[baseline].metrics[metric], treated = experiment.variants[treatment].metrics[metric]
    let confidence = 1 - settings.alpha
    let controlSample = sample(control), treatedSample = sample(treated)
    let test = self.test(control: control, treated: treated)
    var probability: Double?, loss: Double?, difference: Estimate?
    if control.isConversion, let x1 = control.conversions, let x2 = treated.conversions {
      difference = ProportionTests.differenceInterval(
        controlSuccesses: x1, controlTrials: control.n, treatmentSuccesses: x2, treatmentTrials: treated.n,
        confidence: confidence
      ).map { Estimate(value: (treatedSample.mean - controlSample.mean), lower: $0.lower, upper: $0.upper) }
      if control.n > 0, treated.n > 0 {
        let a = bayesian.posterior(successes: x1, trials: control.n)
        let b = bayesian.posterior(successes: x2, trials: treated.n)
        probability = bayesian.probabilityToBeat(control: a, treatment: b)
        loss = bayesian.expectedLoss(control: a, treatment: b)
      }
    } else {
      (probability, loss) = normalPosterior(control: controlSample, treatment: treatedSample)
    }
    let lift = relativeLift(control: control, treated: treated)
    var rankTest: TestSummary?
    if !control.isConversion, experiment.rawOutcomes.count == experiment.variants.count {
      let result = MannWhitney.test(experiment.rawOutcomes[baseline][metric], experiment.rawOutcomes[treatment][metric])
      rankTest = TestSummary(test: "mann-whitney-u", statistic: result.statistic, degreesOfFreedom: nil, pValue: result.pValue)
    }
    var comparison = Comparison(
      variant: experiment.variants[treatment].name,
      baseline: experiment.baseline, test: test, adjustedPValue: nil, difference: difference, lift: lift?.lift,
      liftInterval: lift.map { ($0.interval.lower, $0.interval.upper) }, probabilityToBeatBaseline: probability,
      expectedLoss: loss, trueLift: treated.trueLift,
      looks: looks(experiment, metric: metric, baseline: baseline, treatment: treatment, spending: spending),
      dailyLift: experiment.dailyMetrics.map { variants in
        relativeLift(control: variants[baseline][metric], treated: variants[treatment][metric])
          .map { Estimate(value: $0.lift, lower: $0.interval.lower, upper: $0.interval.upper) }
      })
    comparison.rankTest = rankTest
    comparison.skewWarning = skewWarning(
      [(experiment.variants[baseline].name, control), (experiment.variants[treatment].name, treated)])
    if let margin = settings.guardrails[control.name] {
      comparison.nonInferiority = nonInferiority(control: control, treated: treated, margin: margin)
    }
    if control.n > 0, treated.n > 0, let controlMean = control.mean, let treatedMean = treated.mean {
      comparison.standardError = standardError(control: control, treated: treated)
      comparison.meanDifference = treatedMean - controlMean
      comparison.liftIsUnbounded = controlMean == 0 && treatedMean > 0
      // The point estimate stands where its interval cannot be computed (a treatment mean of 0, constant amounts).
      if comparison.lift == nil, controlMean != 0 { comparison.lift = treatedMean / controlMean - 1 }
    }
    if let adjustment { adjust(&comparison, by: adjustment, baseline: baseline, treatment: treatment) }
    if min(control.n, treated.n) < settings.minimumDevicesPerVariant { withhold(&comparison) }
    return comparison
  }

  /// The arm of an amount's comparison furthest below the devices its
  /// skewness needs, if any is below.
  private func skewWarning(_ arms: [(name: String, summary: MetricSummary)]) -> SkewWarning? {
    let warnings = arms.compactMap { arm -> SkewWarning? in
      guard !arm.summary.isConversion, let skewness = arm.summary.skewness else { return nil }
      let needed = (SkewWarning.devicesPerSquaredSkewness * skewness * skewness).rounded(.up)
      guard needed.isFinite, Double(arm.summary.n) < needed else { return nil }
      return SkewWarning(variant: arm.name, skewness: skewness, devices: arm.summary.n, needed: Int(min(needed, 1e15)))
    }
    return warnings.max { Double($0.devices) / Double($0.needed) > Double($1.devices) / Double($1.needed) }
  }

  /// The ratios and quantiles every variant of the experiment has, in the
  /// scenario's order: ratios first, then each metric's quantiles.
  private func estimatedMetrics(_ experiment: ExperimentResult) -> [EstimatedMetric] {
    let variants = experiment.variants, confidence = 1 - settings.alpha
    let ratios = (0..<(variants.map(\.ratios.count).min() ?? 0)).map { index in
      EstimatedMetric(ratio: index, of: variants, confidence: confidence)
    }
    let quantiles = (0..<(variants.map(\.distributions.count).min() ?? 0)).flatMap { index in
      variants[0].distributions[index].quantiles.map { q in
        EstimatedMetric(quantile: q, distribution: index, of: variants, confidence: confidence)
      }
    }
    return ratios + quantiles
  }

  /// Per winsorized metric, the experiment as if the capped amounts were its
  /// only metric, with no daily cohorts or raw outcomes (those are
  /// uncapped): compared and concluded as any continuous metric is.
  private func winsorizedMetrics(_ experiment: ExperimentResult) -> [ExperimentResult] {
    (0..<(experiment.variants.map(\.winsorized.count).min() ?? 0)).map { index in
      var capped = experiment
      capped.variants = experiment.variants.map { variant in
        var variant = variant
        variant.metrics = [variant.winsorized[index].summary]
        return variant
      }
      (capped.dailyMetrics, capped.rawOutcomes) = ([], [])
      return capped
    }
  }

  /// A variant's ratio or quantile against the baseline's: the z test of the
  /// two normal estimates, the lift with the scenario's interval method (the
  /// log scale for "ratio"), and the normal posterior of their difference.
  private func compare(
    _ metric: EstimatedMetric, in experiment: ExperimentResult, baseline: Int, treatment: Int
  ) -> Comparison {
    let first = metric.estimates[baseline], second = metric.estimates[treatment]
    var comparison = Comparison(
      variant: experiment.variants[treatment].name, baseline: experiment.baseline,
      test: TestSummary(test: metric.test, statistic: nil, degreesOfFreedom: nil, pValue: nil),
      adjustedPValue: nil, difference: nil, lift: nil, liftInterval: nil, probabilityToBeatBaseline: nil,
      expectedLoss: nil, trueLift: metric.trueLifts[treatment], looks: [], dailyLift: [])
    if let a = first, let b = second {
      let result = NormalEstimate.test(control: a, treatment: b)
      comparison.test = TestSummary(test: metric.test, statistic: result.statistic, degreesOfFreedom: nil, pValue: result.pValue)
      let lift = NormalEstimate.lift(
        control: a, treatment: b, confidence: 1 - settings.alpha, logScale: settings.liftInterval == .ratio)
      comparison.lift = lift?.lift ?? (a.value != 0 ? b.value / a.value - 1 : nil)
      comparison.liftInterval = lift.map { ($0.interval.lower, $0.interval.upper) }
      comparison.meanDifference = b.value - a.value
      comparison.standardError = a.variance + b.variance > 0 ? (a.variance + b.variance).squareRoot() : nil
      comparison.liftIsUnbounded = a.value == 0 && b.value > 0
      (comparison.probabilityToBeatBaseline, comparison.expectedLoss) = normalPosterior(
        difference: b.value - a.value, standardError: (a.variance + b.variance).squareRoot())
    }
    if min(metric.counts[baseline], metric.counts[treatment]) < settings.minimumDevicesPerVariant { withhold(&comparison) }
    return comparison
  }

  /// Keeps a comparison's point estimates and drops what would claim more
  /// than its few devices support: the test's statistic and p-value (so that
  /// it leaves the correction's family), the intervals, the Bayesian
  /// summaries and the guardrail's test.
  private func withhold(_ comparison: inout Comparison) {
    comparison.tooFewDevices = true
    comparison.test = TestSummary(test: comparison.test.test, statistic: nil, degreesOfFreedom: nil, pValue: nil)
    comparison.liftInterval = nil
    comparison.difference = nil
    comparison.probabilityToBeatBaseline = nil
    comparison.expectedLoss = nil
    comparison.nonInferiority = nil
    comparison.rankTest = nil
    comparison.covariateAdjustment = nil
    comparison.skewWarning = nil
  }

  /// Replaces the comparison's test, lift, interval, difference of means and
  /// Bayesian summaries by those of the adjusted outcomes (CUPED), keeping
  /// the unadjusted ones beside them. Where Welch's test of the adjusted
  /// outcomes is undefined (neither varies) the comparison stays unadjusted.
  private func adjust(_ comparison: inout Comparison, by adjustment: FittedAdjustment, baseline: Int, treatment: Int) {
    let control = adjustment.fit.adjusted(adjustment.groups[baseline])
    let treated = adjustment.fit.adjusted(adjustment.groups[treatment])
    let result = MeanTests.welch(control: control, treatment: treated)
    guard result.pValue != nil else { return }
    let raw = (adjustment.groups[baseline].outcome, adjustment.groups[treatment].outcome)
    let rawVariance = raw.0.variance / Double(raw.0.count) + raw.1.variance / Double(raw.1.count)
    let adjustedVariance = control.variance / Double(control.count) + treated.variance / Double(treated.count)
    comparison.covariateAdjustment = CovariateAdjustment(
      theta: adjustment.fit.theta, varianceReduction: rawVariance > 0 ? 1 - adjustedVariance / rawVariance : nil,
      unadjusted: comparison.test, unadjustedLift: comparison.lift,
      unadjustedLiftInterval: comparison.liftInterval.map {
        Estimate(value: comparison.lift ?? 0, lower: $0.lower, upper: $0.upper)
      })
    comparison.test = TestSummary(
      test: "cuped-welch-t", statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue)
    let confidence = 1 - settings.alpha
    let lift = settings.liftInterval == .delta
      ? RelativeLift(control: control, treatment: treated, confidence: confidence)
      : RelativeLift.logRatio(control: control, treatment: treated, confidence: confidence)
    comparison.lift = lift?.lift ?? (control.mean > 0 ? treated.mean / control.mean - 1 : nil)
    comparison.liftInterval = lift.map { ($0.interval.lower, $0.interval.upper) }
    comparison.meanDifference = treated.mean - control.mean
    comparison.standardError = adjustedVariance > 0 ? adjustedVariance.squareRoot() : nil
    comparison.liftIsUnbounded = control.mean == 0 && treated.mean > 0
    (comparison.probabilityToBeatBaseline, comparison.expectedLoss) = normalPosterior(control: control, treatment: treated)
  }

  /// The standard error of the difference of rates (unpooled) or of means.
  private func standardError(control: MetricSummary, treated: MetricSummary) -> Double? {
    let variance: Double
    if control.isConversion {
      let p1 = control.mean ?? 0, p2 = treated.mean ?? 0
      variance = p1 * (1 - p1) / Double(control.n) + p2 * (1 - p2) / Double(treated.n)
    } else {
      variance = (control.variance ?? 0) / Double(control.n) + (treated.variance ?? 0) / Double(treated.n)
    }
    return variance > 0 && variance.isFinite ? variance.squareRoot() : nil
  }

  /// The guardrail's one-sided test that the variant loses less than `margin`
  /// on the metric; uncorrected, since each guardrail is its own question.
  private func nonInferiority(control: MetricSummary, treated: MetricSummary, margin: Double) -> NonInferiorityResult {
    let result: TestResult, name: String
    if control.isConversion, let x1 = control.conversions, let x2 = treated.conversions {
      result = NonInferiority.rates(
        controlSuccesses: x1, controlTrials: control.n, treatmentSuccesses: x2, treatmentTrials: treated.n, margin: margin)
      name = "non-inferiority-log-ratio-z"
    } else {
      result = NonInferiority.means(control: sample(control), treatment: sample(treated), margin: margin)
      name = "non-inferiority-log-ratio-t"
    }
    return NonInferiorityResult(
      margin: margin,
      test: TestSummary(test: name, statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue),
      isSafe: (result.pValue ?? 1) < settings.alpha)
  }

  /// The relative lift and its interval by the scenario's `liftInterval` method.
  private func relativeLift(control: MetricSummary, treated: MetricSummary) -> RelativeLift? {
    let confidence = 1 - settings.alpha
    switch settings.liftInterval {
    case .delta:
      return RelativeLift(control: sample(control), treatment: sample(treated), confidence: confidence)
    case .ratio:
      if control.isConversion, let x1 = control.conversions, let x2 = treated.conversions {
        return RelativeLift.wilsonRatio(
          controlSuccesses: x1, controlTrials: control.n, treatmentSuccesses: x2, treatmentTrials: treated.n,
          confidence: confidence)
      }
      return RelativeLift.logRatio(control: sample(control), treatment: sample(treated), confidence: confidence)
    }
  }

  /// A variant's rate with its Wilson interval, or its mean with a t interval
  /// (none for a single device or constant amounts).
  private func estimate(_ summary: MetricSummary) -> Estimate? {
    guard let mean = summary.mean else { return nil }
    let confidence = 1 - settings.alpha
    if summary.isConversion, let conversions = summary.conversions {
      return ProportionTests.wilsonInterval(successes: conversions, trials: summary.n, confidence: confidence)
        .map { Estimate(value: mean, lower: $0.lower, upper: $0.upper) }
    }
    guard let interval = MeanTests.meanInterval(sample(summary), confidence: confidence) else { return nil }
    return Estimate(value: mean, lower: interval.lower, upper: interval.upper)
  }

  private func sample(_ summary: MetricSummary) -> SampleSummary {
    SampleSummary(count: summary.n, mean: summary.mean ?? 0, variance: summary.variance ?? 0)
  }

  /// The test of a variant against the baseline: for conversions the
  /// proportion test below, for amounts Welch's t-test. The final comparison
  /// and every daily look use it. One rule for both kinds: where the test is
  /// undefined (an empty arm; for Welch, an arm below two devices) there is
  /// no p-value, so the comparison leaves the correction's family rather than
  /// entering it with p = 1.
  private func test(control: MetricSummary, treated: MetricSummary) -> TestSummary {
    if control.isConversion, let x1 = control.conversions, let x2 = treated.conversions {
      guard control.n > 0, treated.n > 0 else {
        return TestSummary(test: "two-proportion-z", statistic: nil, degreesOfFreedom: nil, pValue: nil)
      }
      return proportionTest(x1: x1, n1: control.n, x2: x2, n2: treated.n)
    }
    let result = MeanTests.welch(control: sample(control), treatment: sample(treated))
    return TestSummary(test: "welch-t", statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue)
  }

  /// The two-proportion z-test, or Fisher's exact test when an expected cell
  /// of the 2 × 2 table is below 5.
  private func proportionTest(x1: Int, n1: Int, x2: Int, n2: Int) -> TestSummary {
    let total = Double(n1 + n2), successes = Double(x1 + x2)
    let smallestExpected = total > 0
      ? min(successes, total - successes) * Double(min(n1, n2)) / total : 0
    if total > 0, smallestExpected < 5 {
      let result = ProportionTests.fisherExact(a: x1, b: n1 - x1, c: x2, d: n2 - x2)
      return TestSummary(test: "fisher-exact", statistic: result.statistic, degreesOfFreedom: nil, pValue: result.pValue)
    }
    let result = ProportionTests.twoProportionZ(
      controlSuccesses: x1, controlTrials: n1, treatmentSuccesses: x2, treatmentTrials: n2)
    return TestSummary(test: "two-proportion-z", statistic: result.statistic, degreesOfFreedom: nil, pValue: result.pValue)
  }

  /// For amounts, with flat priors the posterior of the difference of means is
  /// normal: P(treatment > control) = Φ(d/s), and the expected loss of choosing
  /// the treatment is E[max(−D, 0)] = s φ(d/s) − d Φ(−d/s), with d = m₂ − m₁
  /// and s² = s₁²/n₁ + s₂²/n₂.
  private func normalPosterior(control: SampleSummary, treatment: SampleSummary) -> (Double?, Double?) {
    guard control.count > 1, treatment.count > 1 else { return (nil, nil) }
    return normalPosterior(
      difference: treatment.mean - control.mean,
      standardError: (control.variance / Double(control.count) + treatment.variance / Double(treatment.count)).squareRoot())
  }

  /// The same for an estimated difference `d` with standard error `s`.
  private func normalPosterior(difference d: Double, standardError s: Double) -> (Double?, Double?) {
    guard s > 0 else { return (nil, nil) }
    let density = exp(-d * d / (2 * s * s)) / (2 * Double.pi).squareRoot()
    return (Distribution.normalCDF(d / s), s * density - d * Distribution.normalCDF(-d / s))
  }

  /// Alpha spending needs each look's share of the final sample: the devices
  /// counted by then over those counted at the last look.
  private func informationFractions(_ experiment: ExperimentResult, metric: Int, baseline: Int, treatment: Int) -> [Double] {
    let counted = experiment.dailyMetrics.map { $0[baseline][metric].n + $0[treatment][metric].n }
    return counted.map { Double($0) / Double(max(counted.last ?? 1, 1)) }
  }

  /// The alpha-spending boundaries of every comparison's daily looks, solved
  /// once per pattern of information fractions: an experiment's metrics
  /// count the same devices, so their comparisons of one variant share a
  /// pattern, and solving a pattern costs milliseconds.
  private func spendingBoundaries(
    _ experiment: ExperimentResult, metrics: Int, baseline: Int, treatments: [Int]
  ) -> [[Double]: SpendingBoundaries] {
    guard settings.dailyLooks, !experiment.dailyMetrics.isEmpty else { return [:] }
    var boundaries: [[Double]: SpendingBoundaries] = [:]
    for metric in 0..<metrics {
      for treatment in treatments {
        let fractions = informationFractions(experiment, metric: metric, baseline: baseline, treatment: treatment)
        guard boundaries[fractions] == nil else { continue }
        boundaries[fractions] = SpendingBoundaries(fractions: fractions, alpha: settings.alpha)
      }
    }
    return boundaries
  }

  /// The comparison repeated at the end of each day on the devices counted so
  /// far, with the ordinary and the always-valid p-value.
  private func looks(
    _ experiment: ExperimentResult, metric: Int, baseline: Int, treatment: Int, spending: [[Double]: SpendingBoundaries]
  ) -> [Look] {
    guard settings.dailyLooks, let last = experiment.dailyMetrics.last else { return [] }
    let scale = (settings.alwaysValidMixture ?? settings.minimumDetectableEffect) * (last[baseline][metric].mean ?? 0)
    guard scale > 0 else { return [] }
    var sequential = SequentialTest(mixtureVariance: scale * scale)
    let fractions = informationFractions(experiment, metric: metric, baseline: baseline, treatment: treatment)
    let boundaries = spending[fractions] ?? SpendingBoundaries(fractions: fractions, alpha: settings.alpha)
    let (obrienFleming, pocock) = (boundaries.obrienFleming, boundaries.pocock)
    return experiment.dailyMetrics.enumerated().map { day, variants in
      let control = variants[baseline][metric], treated = variants[treatment][metric]
      let p = test(control: control, treated: treated).pValue
      if control.n > 1, treated.n > 1 {
        let variance = (control.variance ?? 0) / Double(control.n) + (treated.variance ?? 0) / Double(treated.n)
        sequential.look(estimate: (treated.mean ?? 0) - (control.mean ?? 0), variance: variance)
      }
      return Look(
        day: day, pValue: p, alwaysValidPValue: sequential.pValue,
        obrienFlemingAlpha: GroupSequential.nominalAlpha(boundary: obrienFleming[day]),
        pocockAlpha: GroupSequential.nominalAlpha(boundary: pocock[day]))
    }
  }

  private func conclude(
    _ experiment: ExperimentResult, metric: Int, baseline: Int, comparisons: [Comparison], srm: SRMResult,
    adjustment: FittedAdjustment?
  ) -> MetricAnalysis {
    let summaries = experiment.variants.map { $0.metrics[metric] }
    let isConversion = summaries[baseline].isConversion
    let omnibus: TestSummary
    if isConversion {
      let result = ProportionTests.chiSquareIndependence(successes: summaries.map { $0.conversions ?? 0 }, trials: summaries.map(\.n))
      omnibus = TestSummary(test: "chi-square-independence", statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue)
    } else {
      let result = MeanTests.welchANOVA(summaries.map(sample))
      omnibus = TestSummary(test: "welch-anova", statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue)
    }
    let power = powerSummary(
      summaries, baseline: baseline,
      adjustedVariance: adjustment.map { $0.fit.adjusted($0.groups[baseline]).variance })
    let decided = decide(
      comparisons, in: experiment, counts: summaries.map(\.n), baseline: baseline, srm: srm, power: power,
      baselineValue: summaries[baseline].mean)
    return MetricAnalysis(
      metric: summaries[baseline].name, isConversion: isConversion, estimates: summaries.map(estimate),
      omnibus: omnibus, comparisons: decided, power: power, recommendation: Self.recommend(decided),
      trueWinner: trueWinner(comparisons), knowsTruth: comparisons.allSatisfy { $0.trueLift != nil })
  }

  /// A ratio's or quantile's analysis: each variant's value with its
  /// interval, the Wald omnibus, power for the relative effect on the
  /// baseline's value with the per-device spread its variance implies (n·V),
  /// and the verdict by the same rules as a metric's.
  private func conclude(
    _ metric: EstimatedMetric, in experiment: ExperimentResult, baseline: Int, comparisons: [Comparison], srm: SRMResult
  ) -> MetricAnalysis {
    let result = NormalEstimate.omnibus(metric.estimates.compactMap { $0 })
    let smallest = metric.counts.min() ?? 0, effect = settings.minimumDetectableEffect
    let control = metric.estimates[baseline]
    let sd = control.map { (Double(metric.counts[baseline]) * $0.variance).squareRoot() } ?? 0
    let difference = (control?.value ?? 0) * effect
    let power = PowerSummary(
      requiredPerVariant: Power.sampleSize(difference: difference, standardDeviation: sd, alpha: settings.alpha, power: settings.power),
      smallestVariant: smallest,
      achieved: Power.achieved(difference: difference, standardDeviation: sd, perGroup: smallest, alpha: settings.alpha),
      target: .lift(effect))
    let decided = decide(
      comparisons, in: experiment, counts: metric.counts, baseline: baseline, srm: srm, power: power,
      baselineValue: control?.value)
    var analysis = MetricAnalysis(
      metric: metric.name, isConversion: false, estimates: metric.intervals,
      omnibus: TestSummary(test: "wald-chi-square", statistic: result.statistic, degreesOfFreedom: result.degreesOfFreedom, pValue: result.pValue),
      comparisons: decided, power: power, recommendation: Self.recommend(decided),
      trueWinner: trueWinner(comparisons), knowsTruth: comparisons.allSatisfy { $0.trueLift != nil })
    analysis.isRatio = metric.quantile == nil
    analysis.quantile = metric.quantile
    return analysis
  }
}

/// The O'Brien–Fleming and Pocock boundaries on |Z| of one pattern of looks.
private struct SpendingBoundaries {
  let obrienFleming: [Double]
  let pocock: [Double]

  init(fractions: [Double], alpha: Double) {
    obrienFleming = GroupSequential.boundaries(fractions: fractions, alpha: alpha, spending: .obrienFleming)
    pocock = GroupSequential.boundaries(fractions: fractions, alpha: alpha, spending: .pocock)
  }
}

/// A metric's regression adjustment with the groups it was fitted on, in the
/// experiment's variant order.
private struct FittedAdjustment {
  let fit: RegressionAdjustment
  let groups: [CovariateSample]
}
