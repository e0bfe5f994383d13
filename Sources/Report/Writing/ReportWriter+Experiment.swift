import Lab
import Results
import ScenarioFormat

/// An experiment's section: its sample ratio check, and per metric the table, the recommendation and the power.
extension ReportWriter {
  mutating func writeExperiment(_ experiment: ExperimentResult) {
    heading(2, ReportText(experiment.name))
    let exposed = experiment.variants.map(\.firstExposed).reduce(0, +)
    var sentences = [
      ReportText(
        "Source \(experiment.source), baseline \(experiment.baseline)"
          + (experiment.baselineReason.map { " (\($0))" } ?? "") + ", \(NumberFormat.count(exposed)) devices exposed"
          + (experiment.mixedDevices > 0 ? ", \(NumberFormat.count(experiment.mixedDevices)) of them to more than one variant." : "."))
    ]
    if let srm = experiment.srm, srm.expected.isEmpty {
      sentences.append("Sample ratio check: no configured split is known (give the scenario with --scenario).")
    } else if let srm = experiment.srm {
      let split = zip(experiment.variants, srm.expected).map { "\($0.name) \(NumberFormat.percent($1, decimals: 1))" }
        .joined(separator: ", ")
      let outcome: ReportText = srm.pValue == nil
        ? "cannot be computed"
        : srm.isMismatch
          ? "\(strong: "fails") (p = \(NumberFormat.pValue(srm.pValue))): the first exposures do not follow the configured split"
          : "passes (p = \(NumberFormat.pValue(srm.pValue)))"
      sentences.append("Sample ratio check against the configured split (\(split)): \(outcome).")
    }
    paragraph(sentences)
    for analysis in experiment.analysis {
      writeMetric(analysis, experiment: experiment)
    }
    writeCharts(experiment)
  }

  mutating func writeMetric(_ analysis: MetricAnalysis, experiment: ExperimentResult) {
    // A variant's devices counted, its rate, mean or ratio with its interval, and its true lift.
    let rows: [(counted: Int, value: String, trueLift: Double?, mean: Double?)]
    let valueHeader: String
    if analysis.isRatio {
      guard let ratioIndex = experiment.variants.first?.ratios.firstIndex(where: { $0.name == analysis.metric }) else { return }
      valueHeader = "Ratio (\(confidence) CI)"
      let scale = experiment.variants.compactMap { $0.ratios[ratioIndex].ratio.map(abs) }.max() ?? 1
      rows = experiment.variants.enumerated().map { index, variant in
        let summary = variant.ratios[ratioIndex]
        return (summary.n, ratioCell(analysis.estimates[index], summary: summary, scale: scale), summary.trueLift, summary.ratio)
      }
    } else if let quantile = analysis.quantile {
      guard let distributionIndex = experiment.variants.first?.distributions.firstIndex(where: {
        Metric.quantileName(metric: $0.metric, quantile: quantile) == analysis.metric
      }) else { return }
      valueHeader = "Quantile \(NumberFormat.trim(quantile)) (\(confidence) CI)"
      let scale = analysis.estimates.compactMap { $0.map { abs($0.value) } }.max() ?? 1
      rows = experiment.variants.enumerated().map { index, variant in
        let distribution = variant.distributions[distributionIndex]
        return (
          distribution.counts.reduce(0, +), quantileCell(analysis.estimates[index], scale: scale), distribution.trueLift,
          analysis.estimates[index]?.value)
      }
    } else {
      // A scenario metric's summaries, or a winsorized metric's capped ones.
      let summaries = experiment.variants.compactMap { variant in
        variant.metrics.first { $0.name == analysis.metric }
          ?? variant.winsorized.first { $0.summary.name == analysis.metric }?.summary
      }
      guard summaries.count == experiment.variants.count else { return }
      valueHeader =
        analysis.isConversion
        ? "Conversion rate (\(confidence) CI)" : "\(analysis.winsorize != nil ? "Capped mean" : "Mean") (\(confidence) CI)"
      // The metric's scale, for the decimals of its amounts: the largest mean of a variant.
      let scale = summaries.compactMap { $0.mean.map(abs) }.max() ?? 1
      rows = summaries.enumerated().map { index, summary in
        (summary.n, valueCell(analysis.estimates[index], summary: summary, scale: scale), summary.trueLift, summary.mean)
      }
    }
    heading(3, "\(analysis.metric) (\(analysis.kind))")
    // Real data has no truth: no column for it.
    let truth = analysis.knowsTruth
    var metricTable = ReportTable(
      columns: [
        .init("Variant"), .init("Exposed", numeric: true), .init("Counted", numeric: true), .init(ReportText(valueHeader), numeric: true),
        .init("Lift vs \(experiment.baseline) (\(confidence) CI)", numeric: true), .init("p-value", numeric: true),
        .init("Adjusted p", numeric: true), .init("P(beats \(experiment.baseline))", numeric: true),
      ] + (truth ? [.init("True lift", numeric: true)] : []))
    for (variant, row) in zip(experiment.variants, rows) {
      let comparison = analysis.comparisons.first { $0.variant == variant.name }
      let isBaseline = variant.name == experiment.baseline
      let name = isBaseline ? "\(variant.name) (baseline)" : variant.name
      let exposed = NumberFormat.count(variant.exposed)
        + (variant.contaminated > 0 ? " (\(NumberFormat.count(variant.contaminated)) mixed)" : "")
      let lift = comparison.map { LiftText.cell($0, alpha: input.settings.alpha) } ?? "–"
      let trueLift = isBaseline ? "–" : NumberFormat.signedPercent(row.trueLift)
      let cells = [
        name, exposed, NumberFormat.count(row.counted), row.value, lift, NumberFormat.pValue(comparison?.test.pValue),
        NumberFormat.pValue(comparison?.adjustedPValue), NumberFormat.probability(comparison?.probabilityToBeatBaseline),
      ] + (truth ? [trueLift] : [])
      metricTable.append(cells.map { ReportText($0) })
    }
    table(metricTable)
    var notes: [ReportText] = ["Recommendation: \(recommendationText(analysis, in: experiment))"]
    for comparison in analysis.comparisons {
      guard let design = comparison.designErrors else { continue }
      notes.append(ReportText(
        "At \(plannedEffect(analysis)) this test of \(comparison.variant) has power "
          + "\(NumberFormat.percent(design.power, decimals: 0)): a significant estimate overstates the effect "
          + "\(String(format: "%.1f", design.exaggeration)) times on average (type M) and has the wrong sign with "
          + "probability \(NumberFormat.probability(design.typeS)) (type S)."))
    }
    if analysis.knowsTruth { notes.append(ReportText(truthText(analysis, in: experiment))) }
    if let power = analysis.power, let required = power.requiredPerVariant {
      notes.append(ReportText(
        "Power: \(NumberFormat.count(required)) devices per variant detect \(Self.describe(power.target)) "
          + "with probability \(NumberFormat.trim(input.settings.power)); the smallest variant has \(NumberFormat.count(power.smallestVariant)) "
          + "(power \(NumberFormat.percent(power.achieved, decimals: 0)))."))
    } else if let power = analysis.power, case .lift = power.target,
      zip(experiment.variants, rows).first(where: { $0.0.name == experiment.baseline })?.1.mean == 0
    {
      // Only a scenario metric's mean or rate can be given an absolute target instead.
      let value = ["ratio": "ratio", "quantile": "quantile", "winsorized": "capped mean", "conversion": "rate"][analysis.kind] ?? "mean"
      let fix: ReportText = ["ratio", "quantile", "winsorized"].contains(analysis.kind)
        ? "."
        : "; set \(code: "analysis.minimumDetectableDifference") for \(analysis.metric) to the smallest absolute difference worth detecting."
      notes.append("Power: not computable, the baseline's \(value) is 0 and so is every relative lift of it\(fix)")
    } else if let power = analysis.power {
      // The sample sizes stop at 10¹⁵ devices a group (`Power.largestSampleSize`).
      notes.append(ReportText(
        "Power: not computable for \(Self.describe(power.target)): it would take more than 10¹⁵ devices per variant, "
          + "or the metric does not vary."))
    }
    if let percentile = analysis.winsorize,
      let capped = experiment.variants.first?.winsorized.first(where: { $0.summary.name == analysis.metric }),
      let cap = capped.cap
    {
      let counts = experiment.variants.compactMap { variant in
        variant.winsorized.first { $0.summary.name == analysis.metric }.map { "\(variant.name) \(NumberFormat.count($0.capped))" }
      }
      let scale = experiment.variants.compactMap { $0.metrics.first { $0.name == capped.metric }?.mean.map(abs) }.max() ?? 1
      let amount = AmountPrecision.text(cap, scale: scale)
      notes.append(ReportText(
        "Winsorized: a \(capped.metric) above \(amount) (the \(NumberFormat.trim(percentile)) quantile of the experiment's "
          + "devices, rounded up by at most 1/128) counts as \(amount); devices capped: \(counts.joined(separator: ", ")). "
          + "The true lift is \(capped.metric)'s uncapped one: the capped lift's distance from it is the bias capping "
          + "trades for a smaller variance."))
    }
    let guardrails = analysis.comparisons.compactMap { comparison in comparison.nonInferiority.map { (comparison.variant, $0) } }
    if let margin = guardrails.first?.1.margin {
      let verdicts = guardrails.map { variant, result -> ReportText in
        let verdict: ReportText = result.isSafe ? "\(strong: "safe")" : "not shown safe"
        return "\(variant) \(verdict) (one-sided p = \(NumberFormat.pValue(result.test.pValue)))"
      }
      notes.append(
        "Guardrail, a loss of \(NumberFormat.trim(percent: margin)) or more ruled out at alpha: \(verdicts.joined(separator: ", ")).")
    }
    let tests = Set(analysis.comparisons.map(\.test.test)).sorted()
    if !tests.isEmpty {
      notes.append("Tests: \(tests.joined(separator: ", ")); omnibus \(analysis.omnibus.test) p = \(NumberFormat.pValue(analysis.omnibus.pValue)).")
    }
    let adjusted = analysis.comparisons.compactMap { comparison in
      comparison.covariateAdjustment.map { (comparison.variant, $0) }
    }
    if let theta = adjusted.first?.1.theta {
      let figures = adjusted.map { variant, adjustment in
        let interval = adjustment.unadjustedLiftInterval.map {
          " (\(NumberFormat.signedPercent($0.lower)) to \(NumberFormat.signedPercent($0.upper)))"
        } ?? ""
        return "\(variant)'s difference has \(NumberFormat.percent(adjustment.varianceReduction, decimals: 0)) less variance; unadjusted, "
          + "its lift is \(NumberFormat.signedPercent(adjustment.unadjustedLift))\(interval), p = "
          + NumberFormat.pValue(adjustment.unadjusted.pValue)
      }
      notes.append(ReportText(
        "CUPED: lifts, p-values and chances are adjusted by each device's pre-experiment covariate (θ = "
          + "\(AmountPrecision.text(theta, scale: abs(theta))) per unit): \(figures.joined(separator: "; "))."))
    }
    let ranks = analysis.comparisons.compactMap { comparison in
      comparison.rankTest.map { "\(comparison.variant) p = \(NumberFormat.pValue($0.pValue))" }
    }
    if !ranks.isEmpty {
      notes.append("On the raw outcomes, the Mann–Whitney U test gives \(ranks.joined(separator: ", ")).")
    }
    let skewed = analysis.comparisons.compactMap { comparison in comparison.skewWarning.map { (comparison.variant, $0) } }
    if !skewed.isEmpty {
      let figures = skewed.map { variant, warning in
        "\(variant)'s comparison (\(warning.variant) has \(NumberFormat.count(warning.devices)) devices, skewness "
          + "\(String(format: "%.1f", warning.skewness)), which asks for \(NumberFormat.count(warning.needed)))"
      }
      notes.append(ReportText(
        "‡ Too skewed for its sample: the lift's interval holds its level from about "
          + "\(NumberFormat.trim(SkewWarning.devicesPerSquaredSkewness)) × skewness² devices an arm (docs/statistics.md), "
          + "so with fewer it may miss it and the decision rests on it: "
          + figures.joined(separator: "; ") + "."))
    }
    if analysis.comparisons.contains(where: { LiftText.disagrees($0, alpha: input.settings.alpha) }) {
      notes.append(
        "† The lift's interval and the test's p-value disagree at the margin (the interval is computed on the ratio, the "
          + "test on the difference); the test decides.")
    }
    paragraph(notes.joined(separator: " "))
  }

  /// The power target in words: "a 20% lift", "a difference of 0.01".
  static func describe(_ target: PowerTarget) -> String {
    switch target {
    case .lift(let lift): return "a \(NumberFormat.trim(percent: lift)) lift"
    case .difference(let difference): return "a difference of \(NumberFormat.trimOrPower(difference))"
    }
  }

  /// Why a comparison is not trusted, in a clause; where the truth is known,
  /// a contaminated variant's estimate is set beside it, which shows the
  /// direction the mixing pushed it.
  func reason(_ distrust: Distrust, analysis: MetricAnalysis, subject: String? = nil) -> String {
    switch distrust {
    case .sampleRatioMismatch(let pValue):
      return "sample ratio mismatch (p = \(NumberFormat.pValue(pValue))), the first exposures do not follow the configured split"
    case .contamination(let variant, let share, let devices):
      var text = "\(NumberFormat.percent(share, decimals: 0)) of \(variant == subject ? "its" : "\(variant)'s") counted devices "
        + "(\(NumberFormat.count(devices))) were also shown another variant"
      if let comparison = analysis.comparisons.first(where: { $0.variant == variant }),
        let lift = comparison.lift, let truth = comparison.trueLift, lift != truth
      {
        text += " (its lift reads \(NumberFormat.signedPercent(lift)) where the truth is "
          + "\(NumberFormat.signedPercent(truth)): biased \(lift > truth ? "upward" : "downward"))"
      }
      return text
    case .peeking(let firstDay):
      return "significant only by a fixed-horizon test read at every daily look"
        + (firstDay.map { " (first on day \($0))" } ?? "") + "; no look crossed its O'Brien–Fleming boundary"
    case .tooFewDevices(let variant, let devices, let minimum):
      return "too few devices, \(variant) has \(NumberFormat.count(devices)) where a test needs \(NumberFormat.count(minimum)) "
        + "per variant"
    case .undefinedTest(let variant, let test):
      return "the \(test) test is undefined, every device of \(variant) and of the baseline has the same value (variance 0)"
    }
  }

  /// A quantile with its interval, alone where the interval is a single
  /// value (every device in its ranks had the same amount), or "–" where the
  /// sample is too small for an interval.
  func quantileCell(_ estimate: Estimate?, scale: Double) -> String {
    func amount(_ value: Double) -> String { AmountPrecision.text(value, scale: scale) }
    guard let estimate else { return "–" }
    guard estimate.lower < estimate.upper else { return amount(estimate.value) }
    return "\(amount(estimate.value)) (\(amount(estimate.lower))–\(amount(estimate.upper)))"
  }

  /// A ratio with its interval, or alone where it has none.
  func ratioCell(_ estimate: Estimate?, summary: RatioSummary, scale: Double) -> String {
    func amount(_ value: Double) -> String { AmountPrecision.text(value, scale: scale) }
    guard let estimate else { return summary.ratio.map(amount) ?? "–" }
    return "\(amount(estimate.value)) (\(amount(estimate.lower))–\(amount(estimate.upper)))"
  }

  /// The rate or mean with its interval; the mean alone where no interval
  /// exists (constant amounts), never a zero-width one.
  func valueCell(_ estimate: Estimate?, summary: MetricSummary, scale: Double) -> String {
    func amount(_ value: Double) -> String { AmountPrecision.text(value, scale: scale) }
    guard let estimate else {
      guard let mean = summary.mean else { return "–" }
      if summary.isConversion { return NumberFormat.percent(mean) }
      return "\(amount(mean)) (\(summary.n < 2 ? "one device" : "variance 0"): no interval)"
    }
    if summary.isConversion {
      return "\(NumberFormat.percent(estimate.value)) (\(NumberFormat.percent(estimate.lower))–\(NumberFormat.percent(estimate.upper)))"
    }
    return "\(amount(estimate.value)) (\(amount(estimate.lower))–\(amount(estimate.upper)))"
  }
}
