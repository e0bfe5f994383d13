import Lab
import Results
import ScenarioFormat

/// Writes the report a team reads: what to do first, then per experiment
/// the numbers behind them, what each app version's changes did to devices
/// and why, charts, and with replications how often the analysis is right.
public enum MarkdownReport {
  public static func render(_ input: ReportInput) -> RenderedReport {
    var writer = ReportWriter(input: input)
    writer.write()
    return RenderedReport(markdown: writer.lines.joined(separator: "\n") + "\n", charts: writer.charts)
  }

  /// A lift with its interval, marked † when the interval and the test
  /// disagree and ‡ when an arm is too small for the amount's skewness.
  static func liftCell(_ comparison: Comparison, alpha: Double) -> String {
    if comparison.liftIsUnbounded { return "unbounded (baseline 0)" }
    if comparison.tooFewDevices { return "\(NumberFormat.signedPercent(comparison.lift)) (too few devices)" }
    guard let interval = comparison.liftInterval else { return NumberFormat.signedPercent(comparison.lift) }
    return "\(NumberFormat.signedPercent(comparison.lift)) "
      + "(\(NumberFormat.signedPercent(interval.lower)) to \(NumberFormat.signedPercent(interval.upper)))"
      + (disagrees(comparison, alpha: alpha) ? " †" : "") + (comparison.skewWarning != nil ? " ‡" : "")
  }

  /// A lift with its interval in as few characters as a table cell allows:
  /// "+22.6% (+6.2 to +41.4)".
  static func shortLiftCell(_ comparison: Comparison) -> String {
    if comparison.liftIsUnbounded { return "unbounded" }
    let lift = NumberFormat.signedPercent(comparison.lift)
    guard let interval = comparison.liftInterval, !comparison.tooFewDevices else { return lift }
    func bound(_ value: Double) -> String {
      let text = NumberFormat.signedPercent(value)
      return text.hasSuffix("%") ? String(text.dropLast()) : text
    }
    return "\(lift) (\(bound(interval.lower)) to \(bound(interval.upper)))" + (comparison.skewWarning != nil ? " ‡" : "")
  }

  /// Whether the lift interval and the test disagree: the interval excludes
  /// no lift while the test's p-value is at or above alpha, or the reverse.
  /// They are computed by different methods (a ratio interval, a z or t test
  /// of the difference) and can part at the margin; the test decides.
  static func disagrees(_ comparison: Comparison, alpha: Double) -> Bool {
    guard let interval = comparison.liftInterval, let p = comparison.test.pValue else { return false }
    return (interval.lower > 0 || interval.upper < 0) != (p < alpha)
  }
}

private struct ReportWriter {
  let input: ReportInput
  var lines: [String] = []
  var charts: [(fileName: String, svg: String)] = []

  private var document: ResultsDocument { input.document }
  private var confidence: String { NumberFormat.trim(percent: 1 - input.settings.alpha) }

  init(input: ReportInput) {
    self.input = input
  }

  mutating func write() {
    lines.append("# Lab Bench report: \(document.scenario)")
    lines.append("")
    if !input.description.isEmpty {
      lines.append("> \(input.description)")
      lines.append("")
    }
    let correction = switch input.settings.correction {
    case .none: "no correction"
    case .holm: "Holm correction"
    case .benjaminiHochberg: "Benjamini–Hochberg correction"
    }
    lines.append(
      "\(input.source): \(NumberFormat.count(document.devices)) devices over \(document.days) day\(document.days == 1 ? "" : "s")"
        + (document.seed.map { ", seed \($0)" } ?? "")
        + (document.replications > 1 ? ", \(NumberFormat.count(document.replications)) replications" : "")
        + ". Alpha \(NumberFormat.trim(input.settings.alpha)), \(correction), \(input.settings.attribution.rawValue) attribution, "
        + "\(confidence) intervals.")
    lines.append("")
    writeDecisions()
    for experiment in document.experiments {
      writeExperiment(experiment)
    }
    writeChangeImpact()
    writeEnrollment()
    if let delivery = document.delivery { writeDelivery(delivery) }
    if let calibration = document.calibration { writeCalibration(calibration) }
  }

  // MARK: - Decisions

  /// The first screen: what the plan does over its replications and one
  /// decision per experiment (`DecisionSummary`); then, as the evidence, what
  /// each metric says, each variant's decision on it in a table narrow
  /// enough for a 980-pixel column, and what should stop a reader: results
  /// that contradict the truth, and the plan's hazards.
  private mutating func writeDecisions() {
    lines.append("## What to do")
    lines.append("")
    lines += DecisionSummary(document: document, settings: input.settings).lines
    lines.append("")
    let analysed = document.experiments.filter { !$0.analysis.isEmpty }
    if !analysed.isEmpty {
      lines.append("## Evidence per metric")
      lines.append("")
      for experiment in analysed {
        for analysis in experiment.analysis {
          lines.append("- **\(experiment.name)**, \(analysis.metric): \(recommendationText(analysis, in: experiment))")
        }
      }
      lines.append("")
    }
    lines.append("## Decisions")
    lines.append("")
    let knowsTruth = document.experiments.contains { $0.analysis.contains(where: \.knowsTruth) }
    for experiment in document.experiments where experiment.analysis.contains(where: { !$0.comparisons.isEmpty }) {
      // A table per experiment, so that no column holds its name: the tables fit a 980-pixel column.
      lines.append("**\(experiment.name)**, each variant against \(experiment.baseline):")
      lines.append("")
      lines.append("| Variant | Metric | Decision | Lift (\(confidence) CI) | Adj. p |" + (knowsTruth ? " Truth | Right? |" : ""))
      lines.append("|---|---|---|---:|---:|" + (knowsTruth ? "---:|---|" : ""))
      for analysis in experiment.analysis {
        for comparison in analysis.comparisons {
          var row = "| \(comparison.variant) | \(analysis.metric) | \(decisionCell(comparison.decision)) | "
            + "\(MarkdownReport.shortLiftCell(comparison)) | \(NumberFormat.pValue(comparison.adjustedPValue)) |"
          if knowsTruth {
            row += " \(NumberFormat.signedPercent(comparison.trueLift)) | \(rightCell(comparison)) |"
          }
          lines.append(row)
        }
      }
      lines.append("")
    }
    let warnings = redFlags() + hazards()
    if !warnings.isEmpty {
      lines += warnings.map { "- \($0)" }
      lines.append("")
    }
  }

  /// The metric's recommendation as a sentence, then a sentence for each
  /// other variant that the recommendation leaves out.
  private func recommendationText(_ analysis: MetricAnalysis, in experiment: ExperimentResult) -> String {
    var sentences: [String]
    var named: String?
    switch analysis.recommendation {
    case .ship(let variant):
      named = variant
      let comparison = analysis.comparisons.first { $0.variant == variant }
      sentences = ["**Ship \(variant)**"
        + (comparison.map {
          ": \(MarkdownReport.liftCell($0, alpha: input.settings.alpha)), adjusted p = \(NumberFormat.pValue($0.adjustedPValue))."
        } ?? ".")]
      if let warning = comparison?.skewWarning {
        sentences.append(
          "Its interval may miss its level: the amounts' skewness (\(String(format: "%.1f", warning.skewness))) asks for "
            + "about \(NumberFormat.count(warning.needed)) devices an arm, and \(warning.variant) has "
            + "\(NumberFormat.count(warning.devices)).")
      }
    case .keepBaseline:
      sentences = ["**Keep \(experiment.baseline)**: no variant beats it."]
    case .keepRunning(let devices):
      sentences = ["**Keep running**"
        + (devices.map { ": about \(NumberFormat.count($0)) more devices per variant to detect \(plannedEffect(analysis))." }
          ?? ": not significant, and the power calculation asks for no more devices than it has (or cannot say how many); "
          + "the decision above says what to do.")]
    case .doNotTrust(let distrust):
      sentences = ["**Do not trust**: \(reason(distrust, analysis: analysis))."]
    }
    for comparison in analysis.comparisons where comparison.variant != named {
      let variant = comparison.variant
      switch comparison.decision {
      case .ship: sentences.append("\(variant) also beats \(experiment.baseline).")
      case .doNotShip(.worse): sentences.append("\(variant) is worse than \(experiment.baseline).")
      case .doNotShip(.plannedEffectRuledOut(let upper, _)):
        sentences.append("\(variant) is ruled out: its lift is at most \(NumberFormat.signedPercent(upper)).")
      case .doNotShip(.guardrail(let metric)): sentences.append("\(variant) is held by the \(metric) guardrail.")
      case .inconclusive(let devices):
        sentences.append(
          "\(variant) is inconclusive" + (devices.map { ": about \(NumberFormat.count($0)) more devices per variant." } ?? "."))
      case .notTrustworthy(let distrust):
        if case .doNotTrust(distrust) = analysis.recommendation { continue }
        sentences.append("\(variant): do not trust, \(reason(distrust, analysis: analysis, subject: variant)).")
      }
    }
    return sentences.joined(separator: " ")
  }

  /// Whether the recommendation agrees with the truth, in a sentence: a
  /// variant shipped is right when it truly beats the baseline, keeping the
  /// baseline when none does; keeping running and withholding claim nothing.
  private func truthText(_ analysis: MetricAnalysis, in experiment: ExperimentResult) -> String {
    let best = analysis.trueWinner.flatMap { winner in
      analysis.comparisons.first { $0.variant == winner }.map { "\(winner) (\(NumberFormat.signedPercent($0.trueLift)))" }
    }
    switch analysis.recommendation {
    case .ship(let variant):
      let truth = analysis.comparisons.first { $0.variant == variant }?.trueLift ?? 0
      if truth > 1e-12 {
        return "\(variant) truly beats \(experiment.baseline) (\(NumberFormat.signedPercent(truth)))"
          + (analysis.trueWinner == variant ? "" : "; the best variant is \(best ?? "another")") + ": the recommendation is right."
      }
      return "\(variant)'s true lift is \(NumberFormat.signedPercent(truth)): the recommendation is wrong."
    case .keepBaseline:
      // Kept, each variant was worse or short of the planned lift: right when the truth agrees for each.
      let right = analysis.comparisons.allSatisfy { Self.agreesWithTruth($0) != false }
      return (best.map { "The best variant is \($0)" } ?? "No variant truly beats the baseline")
        + "; keeping the baseline is \(right ? "right" : "wrong")."
    case .keepRunning:
      return (best.map { "The best variant is \($0)" } ?? "No variant truly beats the baseline") + "; keeping running claims nothing."
    case .doNotTrust:
      return (best.map { "The best variant is \($0)" } ?? "No variant truly beats the baseline") + "; the decision is withheld."
    }
  }

  /// The planned effect in words: "a 10% lift", "a difference of 0.005".
  private func plannedEffect(_ analysis: MetricAnalysis) -> String {
    analysis.power.map { Self.describe($0.target) } ?? "the planned effect"
  }

  /// A decision in a few words, the details left to the lines above the table.
  private func decisionCell(_ decision: Decision) -> String {
    switch decision {
    case .ship: return "**ship**"
    case .doNotShip(.worse): return "no ship: worse"
    case .doNotShip(.plannedEffectRuledOut): return "no ship: no gain"
    case .doNotShip(.guardrail): return "held by guardrail"
    case .inconclusive: return "inconclusive"
    case .notTrustworthy(let distrust):
      switch distrust {
      case .sampleRatioMismatch: return "untrusted: SRM"
      case .contamination(_, let share, _): return "untrusted: \(NumberFormat.percent(share, decimals: 0)) mixed"
      case .peeking: return "untrusted: peeking"
      case .tooFewDevices: return "untrusted: too few"
      case .undefinedTest: return "untrusted: no test"
      }
    }
  }

  /// Whether a decision agrees with the truth: a ship is right when the true
  /// lift is above 0, "do not ship" when it is not (or, for a ruled-out
  /// effect, below the planned lift); inconclusive and withheld decisions
  /// claim nothing.
  private func rightCell(_ comparison: Comparison) -> String {
    if case .notTrustworthy = comparison.decision { return "withheld" }
    guard let right = Self.agreesWithTruth(comparison) else { return "–" }
    return right ? "yes" : "**no**"
  }

  /// Whether a decision agrees with the truth, `nil` where it claims nothing
  /// (inconclusive, withheld) or the truth is unknown.
  private static func agreesWithTruth(_ comparison: Comparison) -> Bool? {
    guard let truth = comparison.trueLift else { return nil }
    switch comparison.decision {
    case .ship: return truth > 1e-12
    case .doNotShip(.plannedEffectRuledOut(_, let planned)): return truth < planned
    case .doNotShip: return truth <= 1e-12
    case .inconclusive, .notTrustworthy: return nil
    }
  }

  /// Significant results that contradict the truth, by name: a lift of the
  /// wrong sign, or a lift where the truth is none.
  private func redFlags() -> [String] {
    var flags: [String] = []
    for experiment in document.experiments {
      for analysis in experiment.analysis where analysis.knowsTruth {
        for comparison in analysis.comparisons {
          guard let p = comparison.adjustedPValue ?? comparison.test.pValue, p < input.settings.alpha,
            let lift = comparison.meanDifference ?? comparison.lift, let truth = comparison.trueLift
          else { continue }
          let observed = comparison.liftIsUnbounded ? "an unbounded lift" : NumberFormat.signedPercent(comparison.lift)
          let subject = "\(experiment.name), \(analysis.metric): \(comparison.variant) is significant (\(observed), p = \(NumberFormat.pValue(p)))"
          if truth == 0 {
            flags.append("**Red flag, false positive**: \(subject) but its true lift is 0.")
          } else if (lift < 0) != (truth < 0), lift != 0 {
            flags.append("**Red flag, sign error**: \(subject) but its true lift is \(NumberFormat.signedPercent(truth)).")
          }
        }
      }
    }
    return flags
  }

  /// The plan's hazards, largest first: devices shown several variants of an
  /// experiment, and keys two experiments claimed at once.
  private func hazards() -> [String] {
    var hazards: [(share: Double, text: String)] = []
    for experiment in document.experiments {
      let exposed = experiment.variants.map(\.firstExposed).reduce(0, +)
      guard exposed > 0, experiment.mixedDevices > 0 else { continue }
      let share = Double(experiment.mixedDevices) / Double(exposed)
      guard share >= 0.01 else { continue }
      hazards.append((share, "**Hazard**: \(NumberFormat.percent(share, decimals: 1)) of \(experiment.name)'s devices "
        + "(\(NumberFormat.count(experiment.mixedDevices))) were shown more than one variant; they blur every comparison of it."))
    }
    for conflict in document.conflicts where conflict.devices > 0 {
      let share = Double(conflict.devices) / Double(max(document.devices, 1))
      hazards.append((share, "**Hazard**: \(NumberFormat.count(conflict.devices)) devices (\(NumberFormat.percent(share, decimals: 1))) "
        + "met \(conflict.experiments.joined(separator: " and ")) on the shared key `\(conflict.key)`: the manager served one "
        + "and discarded the other's variant."))
    }
    return hazards.sorted { $0.share > $1.share }.map(\.text)
  }

  // MARK: - One experiment

  private mutating func writeExperiment(_ experiment: ExperimentResult) {
    lines.append("## \(experiment.name)")
    lines.append("")
    let exposed = experiment.variants.map(\.firstExposed).reduce(0, +)
    lines.append(
      "Source \(experiment.source), baseline \(experiment.baseline), \(NumberFormat.count(exposed)) devices exposed"
        + (experiment.mixedDevices > 0 ? ", \(NumberFormat.count(experiment.mixedDevices)) of them to more than one variant." : "."))
    if let srm = experiment.srm, srm.expected.isEmpty {
      lines.append("Sample ratio check: no configured split is known (give the scenario with --scenario).")
    } else if let srm = experiment.srm {
      let split = zip(experiment.variants, srm.expected).map { "\($0.name) \(NumberFormat.percent($1, decimals: 1))" }
        .joined(separator: ", ")
      let outcome = srm.pValue == nil
        ? "cannot be computed"
        : srm.isMismatch
          ? "**fails** (p = \(NumberFormat.pValue(srm.pValue))): the first exposures do not follow the configured split"
          : "passes (p = \(NumberFormat.pValue(srm.pValue)))"
      lines.append("Sample ratio check against the configured split (\(split)): \(outcome).")
    }
    lines.append("")
    for analysis in experiment.analysis {
      writeMetric(analysis, experiment: experiment)
    }
    writeCharts(experiment)
  }

  private mutating func writeMetric(_ analysis: MetricAnalysis, experiment: ExperimentResult) {
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
    lines.append("### \(analysis.metric) (\(analysis.kind))")
    lines.append("")
    // Real data has no truth: no column for it.
    let truth = analysis.knowsTruth
    lines.append("| Variant | Exposed | Counted | \(valueHeader) | Lift vs \(experiment.baseline) (\(confidence) CI) | p-value | Adjusted p | P(beats \(experiment.baseline)) |" + (truth ? " True lift |" : ""))
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|" + (truth ? "---:|" : ""))
    for (variant, row) in zip(experiment.variants, rows) {
      let comparison = analysis.comparisons.first { $0.variant == variant.name }
      let isBaseline = variant.name == experiment.baseline
      let name = isBaseline ? "\(variant.name) (baseline)" : variant.name
      let exposed = NumberFormat.count(variant.exposed)
        + (variant.contaminated > 0 ? " (\(NumberFormat.count(variant.contaminated)) mixed)" : "")
      let lift = comparison.map { MarkdownReport.liftCell($0, alpha: input.settings.alpha) } ?? "–"
      let trueLift = isBaseline ? "–" : NumberFormat.signedPercent(row.trueLift)
      lines.append(
        "| \(name) | \(exposed) | \(NumberFormat.count(row.counted)) | \(row.value) | \(lift) | "
          + "\(NumberFormat.pValue(comparison?.test.pValue)) | \(NumberFormat.pValue(comparison?.adjustedPValue)) | "
          + "\(NumberFormat.probability(comparison?.probabilityToBeatBaseline)) |" + (truth ? " \(trueLift) |" : ""))
    }
    lines.append("")
    var notes: [String] = ["Recommendation: \(recommendationText(analysis, in: experiment))"]
    for comparison in analysis.comparisons {
      guard let design = comparison.designErrors else { continue }
      notes.append(
        "At \(plannedEffect(analysis)) this test of \(comparison.variant) has power "
          + "\(NumberFormat.percent(design.power, decimals: 0)): a significant estimate overstates the effect "
          + "\(String(format: "%.1f", design.exaggeration)) times on average (type M) and has the wrong sign with "
          + "probability \(NumberFormat.probability(design.typeS)) (type S).")
    }
    if analysis.knowsTruth { notes.append(truthText(analysis, in: experiment)) }
    if let power = analysis.power, let required = power.requiredPerVariant {
      notes.append(
        "Power: \(NumberFormat.count(required)) devices per variant detect \(Self.describe(power.target)) "
          + "with probability \(NumberFormat.trim(input.settings.power)); the smallest variant has \(NumberFormat.count(power.smallestVariant)) "
          + "(power \(NumberFormat.percent(power.achieved, decimals: 0))).")
    } else if let power = analysis.power, case .lift = power.target,
      zip(experiment.variants, rows).first(where: { $0.0.name == experiment.baseline })?.1.mean == 0
    {
      // Only a scenario metric's mean or rate can be given an absolute target instead.
      let value = ["ratio": "ratio", "quantile": "quantile", "winsorized": "capped mean", "conversion": "rate"][analysis.kind] ?? "mean"
      notes.append(
        "Power: not computable, the baseline's \(value) is 0 and so is every relative lift of it"
          + (["ratio", "quantile", "winsorized"].contains(analysis.kind)
            ? "."
            : "; set `analysis.minimumDetectableDifference` for \(analysis.metric) to the smallest absolute difference worth detecting."))
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
      notes.append(
        "Winsorized: a \(capped.metric) above \(amount) (the \(NumberFormat.trim(percentile)) quantile of the experiment's "
          + "devices, rounded up by at most 1/128) counts as \(amount); devices capped: \(counts.joined(separator: ", ")). "
          + "The true lift is \(capped.metric)'s uncapped one: the capped lift's distance from it is the bias capping "
          + "trades for a smaller variance.")
    }
    let guardrails = analysis.comparisons.compactMap { comparison in comparison.nonInferiority.map { (comparison.variant, $0) } }
    if let margin = guardrails.first?.1.margin {
      let verdicts = guardrails.map { variant, result in
        "\(variant) \(result.isSafe ? "**safe**" : "not shown safe") (one-sided p = \(NumberFormat.pValue(result.test.pValue)))"
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
      notes.append(
        "CUPED: lifts, p-values and chances are adjusted by each device's pre-experiment covariate (θ = "
          + "\(AmountPrecision.text(theta, scale: abs(theta))) per unit): \(figures.joined(separator: "; ")).")
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
      notes.append(
        "‡ Too skewed for its sample: the lift's interval holds its level from about "
          + "\(NumberFormat.trim(SkewWarning.devicesPerSquaredSkewness)) × skewness² devices an arm (docs/statistics.md), "
          + "so with fewer it may miss it and the decision rests on it: "
          + figures.joined(separator: "; ") + ".")
    }
    if analysis.comparisons.contains(where: { MarkdownReport.disagrees($0, alpha: input.settings.alpha) }) {
      notes.append(
        "† The lift's interval and the test's p-value disagree at the margin (the interval is computed on the ratio, the "
          + "test on the difference); the test decides.")
    }
    lines.append(notes.joined(separator: " "))
    lines.append("")
  }

  /// The power target in words: "a 20% lift", "a difference of 0.01".
  private static func describe(_ target: PowerTarget) -> String {
    switch target {
    case .lift(let lift): return "a \(NumberFormat.trim(percent: lift)) lift"
    case .difference(let difference): return "a difference of \(NumberFormat.trim(difference))"
    }
  }

  /// Why a comparison is not trusted, in a clause; where the truth is known,
  /// a contaminated variant's estimate is set beside it, which shows the
  /// direction the mixing pushed it.
  private func reason(_ distrust: Distrust, analysis: MetricAnalysis, subject: String? = nil) -> String {
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
  private func quantileCell(_ estimate: Estimate?, scale: Double) -> String {
    func amount(_ value: Double) -> String { AmountPrecision.text(value, scale: scale) }
    guard let estimate else { return "–" }
    guard estimate.lower < estimate.upper else { return amount(estimate.value) }
    return "\(amount(estimate.value)) (\(amount(estimate.lower))–\(amount(estimate.upper)))"
  }

  /// A ratio with its interval, or alone where it has none.
  private func ratioCell(_ estimate: Estimate?, summary: RatioSummary, scale: Double) -> String {
    func amount(_ value: Double) -> String { AmountPrecision.text(value, scale: scale) }
    guard let estimate else { return summary.ratio.map(amount) ?? "–" }
    return "\(amount(estimate.value)) (\(amount(estimate.lower))–\(amount(estimate.upper)))"
  }

  /// The rate or mean with its interval; the mean alone where no interval
  /// exists (constant amounts), never a zero-width one.
  private func valueCell(_ estimate: Estimate?, summary: MetricSummary, scale: Double) -> String {
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

  // MARK: - Charts

  private mutating func writeCharts(_ experiment: ExperimentResult) {
    // A run of one day has no course over the days to draw.
    guard document.days > 1 else { return }
    let days = Array(0..<document.days)
    let prefix = "\(document.scenario)-\(experiment.name)"
    var links: [String] = []
    let exposures = LineChart(
      title: "\(experiment.name): devices shown each variant for the first time, per day", xLabel: "day",
      yLabel: "new devices",
      xValues: days,
      series: experiment.variants.enumerated().map { index, variant in
        LineChart.Series(name: variant.name, values: experiment.dailyNewExposures[index].map(Double.init), colour: index)
      },
      formatY: { NumberFormat.count(Int($0.rounded())) })
    charts.append(("\(prefix)-exposures.svg", exposures.svg))
    links.append("![Devices shown each variant for the first time, per day](\(prefix)-exposures.svg)")
    for analysis in experiment.analysis where !analysis.comparisons.isEmpty {
      var series: [LineChart.Series] = []
      var settled: [Double] = []
      // A band much wider than the narrowest (a variant of few devices) would flatten every other line:
      // the axis follows the informative ones, and the wide band is clipped and marked at the edge.
      let widths = analysis.comparisons.map { comparison in
        comparison.dailyLift.suffix(max(days.count / 2, 1)).compactMap { $0.map { $0.upper - $0.lower } }.max()
      }
      let narrowest = widths.compactMap { $0 }.filter { $0.isFinite && $0 > 0 }.min()
      for (position, comparison) in analysis.comparisons.enumerated() {
        let colour = experiment.variants.firstIndex { $0.name == comparison.variant } ?? 0
        series.append(LineChart.Series(
          name: comparison.variant, values: comparison.dailyLift.map { $0?.value }, colour: colour,
          band: (comparison.dailyLift.map { $0?.lower }, comparison.dailyLift.map { $0?.upper })))
        if let truth = comparison.trueLift {
          series.append(LineChart.Series(
            name: "\(comparison.variant) true lift", values: days.map { _ in truth }, dashed: true, colour: colour))
          settled.append(truth)
        }
        // Early days' intervals are huge; scale the axis to the second half of the run and mark what is clipped.
        let informative = narrowest.map { (widths[position] ?? 0) <= 4 * $0 } ?? true
        for estimate in comparison.dailyLift.suffix(max(days.count / 2, 1)).compactMap({ $0 }) {
          settled += informative ? [estimate.value, estimate.lower, estimate.upper] : [estimate.value]
        }
      }
      let lift = LineChart(
        title: "\(experiment.name): cumulative lift on \(analysis.metric) vs \(experiment.baseline)",
        xLabel: "day (devices first exposed by the end of it)", yLabel: "relative lift, \(confidence) interval shaded",
        xValues: days, series: series,
        reference: (0, "no effect"), yExtent: settled.isEmpty ? nil : settled, formatY: { NumberFormat.trim(percent: $0) })
      charts.append(("\(prefix)-\(analysis.metric)-lift.svg", lift.svg))
      links.append("![Lift on \(analysis.metric) over the days](\(prefix)-\(analysis.metric)-lift.svg)")
      if analysis.comparisons.allSatisfy({ !$0.looks.isEmpty }) {
        var pSeries: [LineChart.Series] = []
        for (offset, comparison) in analysis.comparisons.enumerated() {
          let colour = experiment.variants.firstIndex { $0.name == comparison.variant } ?? offset
          pSeries.append(LineChart.Series(name: "\(comparison.variant) naive", values: comparison.looks.map(\.pValue), dashed: true, colour: colour))
          pSeries.append(LineChart.Series(name: "\(comparison.variant) always valid", values: comparison.looks.map(\.alwaysValidPValue), colour: colour))
        }
        let looks = LineChart(
          title: "\(experiment.name): \(analysis.metric) p-values at each daily look",
          xLabel: "day", yLabel: "p-value", xValues: days, series: pSeries,
          reference: (input.settings.alpha, "alpha"), formatY: { NumberFormat.trim($0) })
        charts.append(("\(prefix)-\(analysis.metric)-looks.svg", looks.svg))
        links.append("![Naive and always-valid p-values at each look](\(prefix)-\(analysis.metric)-looks.svg)")
      }
    }
    // A chart a paragraph, so that each takes the column's width.
    for link in links { lines += [link, ""] }
  }

  // MARK: - Change impact

  private mutating func writeChangeImpact() {
    let transitions = document.experiments.flatMap { experiment in experiment.transitions.map { (experiment, $0) } }
    writeServiceChanges()
    writeFlags()
    guard !transitions.isEmpty || !document.conflicts.isEmpty else { return }
    lines.append("## Change impact")
    lines.append("")
    lines.append(
      "What each upgrade did to the devices of each experiment, comparing a device's last launch of the old version with its "
        + "first launch of the new one, and the Lab rule that decided it (docs/rules/). Of the devices that made the upgrade, "
        + "each was kept, reassigned, deactivated, activated or stayed inactive; \"returned elsewhere\" counts, of the "
        + "devices that came back to the experiment, those on another variant than their last.")
    lines.append("")
    for experiment in document.experiments {
      let rows = experiment.transitions.filter { $0.total > 0 }
      guard !rows.isEmpty else { continue }
      lines.append("**\(experiment.name)**")
      lines.append("")
      lines.append("| Upgrade | Devices | Kept | Reassigned | Deactivated | Activated | Inactive | Returned elsewhere |")
      lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
      for transition in rows {
        let back = transition.returned > 0
          ? "\(NumberFormat.count(transition.returnedOnAnotherVariant)) of \(NumberFormat.count(transition.returned))" : "–"
        lines.append(
          "| \(transition.fromVersion) → \(transition.toVersion) | \(NumberFormat.count(transition.devices)) | "
            + "\(NumberFormat.count(transition.kept)) | \(NumberFormat.count(transition.reassigned)) | "
            + "\(NumberFormat.count(transition.deactivated)) | \(NumberFormat.count(transition.activated)) | "
            + "\(NumberFormat.count(transition.devices - transition.total)) | \(back) |")
      }
      lines.append("")
    }
    // One sentence per change of each upgrade between consecutive versions; devices that skipped versions
    // met the same changes at once, by the same rules, so one sentence per experiment names those upgrades.
    for experiment in document.experiments {
      let made = experiment.transitions.filter { $0.total > 0 }
      for transition in made where !ChangeSentences.skipsVersions(transition, versions: input.versions) {
        for sentence in ChangeSentences.sentences(for: transition, of: experiment.name, versions: input.versions) {
          lines.append("- \(sentence)")
        }
      }
      let skipping = made.filter { ChangeSentences.skipsVersions($0, versions: input.versions) }
      if !skipping.isEmpty {
        let upgrades = skipping.map { "\($0.fromVersion) → \($0.toVersion) (\(NumberFormat.count($0.devices)))" }
        lines.append(
          "- \(experiment.name): devices that skipped versions, \(upgrades.joined(separator: ", ")), met the skipped "
            + "versions' changes at once, by the same rules; the table counts what each did.")
      }
    }
    for experiment in document.experiments where experiment.mixedDevices > 0 {
      let exposed = experiment.variants.map(\.firstExposed).reduce(0, +)
      lines.append(
        "- \(experiment.name): \(NumberFormat.count(experiment.mixedDevices)) of its \(NumberFormat.count(exposed)) exposed devices "
          + "(\(NumberFormat.percent(Double(experiment.mixedDevices) / Double(exposed), decimals: 1))) were shown more than one "
          + "variant; each carries a mix of their effects, which pulls the observed lifts away from the true ones.")
    }
    for conflict in document.conflicts {
      let names = conflict.experiments.joined(separator: " and ")
      if conflict.devices > 0, let first = conflict.firstDay, let last = conflict.lastDay {
        let served = conflict.served.map { "\($0.experiment)/\($0.variant) on \(NumberFormat.count($0.devices))" }
          .joined(separator: ", ")
        let days = first == last ? "on day \(first)" : "from day \(first) to day \(last)"
        lines.append(
          "- \(names) share the key `\(conflict.key)`: on \(NumberFormat.count(conflict.devices)) devices both were active "
            + "at once (\(days)). The assignments manager served the variant first in its order (\(served) devices) and "
            + "discarded the other's whole variant at those launches, as Lab's manager does (Lab allows shared keys only on "
            + "disjoint token ranges; a range that shrinks leaves its active devices behind).")
      } else {
        lines.append("- \(names) share the key `\(conflict.key)` and were never active together on a device.")
      }
    }
    lines.append("")
  }

  /// Who each enrollment rule enrolled, and the diluted estimate (every
  /// enrolled device) beside the triggered one (devices shown the change).
  private mutating func writeEnrollment() {
    let experiments = document.experiments.filter { $0.enrollment != nil }
    guard !experiments.isEmpty else { return }
    lines.append("## Enrollment")
    lines.append("")
    for experiment in experiments {
      let enrollment = experiment.enrollment!
      let enrolled = enrollment.variants.map(\.exposed).reduce(0, +), shown = enrollment.shown.reduce(0, +)
      let share = enrolled > 0 ? NumberFormat.percent(Double(shown) / Double(enrolled), decimals: 1) : "–"
      lines.append(
        "\(experiment.name) enrolls at \(enrollment.policy == "run" ? "run (when shown)" : enrollment.policy): "
          + "\(NumberFormat.count(enrolled)) devices enrolled, \(NumberFormat.count(shown)) of them (\(share)) shown the "
          + "experiment. Enrolled devices never shown it dilute the measured effect; devices never enrolled are left out, "
          + "not counted as the baseline.")
      lines.append("")
      let mistaken = enrollment.neverEnrolledAsBaselineAnalysis
      lines.append(
        "| Metric | Variant | Triggered: shown devices (CI) | Diluted: enrolled devices (CI) | "
          + (mistaken.isEmpty ? "" : "Never-enrolled counted as baseline, a mistake (CI) | ") + "True lift when shown |")
      lines.append("|---|---|---:|---:|" + (mistaken.isEmpty ? "" : "---:|") + "---:|")
      func cell(_ comparison: Comparison?) -> String {
        comparison.map { MarkdownReport.liftCell($0, alpha: input.settings.alpha) } ?? "–"
      }
      for (index, (triggered, diluted)) in zip(experiment.analysis, enrollment.analysis).enumerated() {
        for (position, (shownComparison, enrolledComparison)) in zip(triggered.comparisons, diluted.comparisons).enumerated() {
          let wrong = index < mistaken.count && position < mistaken[index].comparisons.count
            ? "\(cell(mistaken[index].comparisons[position])) | " : (mistaken.isEmpty ? "" : "– | ")
          lines.append(
            "| \(triggered.metric) | \(shownComparison.variant) vs \(shownComparison.baseline) | \(cell(shownComparison)) | "
              + "\(cell(enrolledComparison)) | \(wrong)\(NumberFormat.signedPercent(shownComparison.trueLift)) |")
        }
      }
      lines.append("")
      let compared = zip(experiment.analysis, enrollment.analysis).flatMap { $0.comparisons + $1.comparisons }
        + mistaken.flatMap(\.comparisons)
      if compared.contains(where: { MarkdownReport.disagrees($0, alpha: input.settings.alpha) }) {
        lines.append("† The lift's interval and the test's p-value disagree at the margin; the test decides.")
        lines.append("")
      }
      let active = enrollment.segments.map(\.active).reduce(0, +), enrolledTotal = enrollment.segments.map(\.enrolled).reduce(0, +)
      if enrollment.segments.count > 1, active > 0, enrolledTotal > 0 {
        let mix = enrollment.segments.map { segment in
          "\(segment.name) \(NumberFormat.percent(Double(segment.enrolled) / Double(enrolledTotal), decimals: 1)) of the enrolled "
            + "(\(NumberFormat.percent(Double(segment.active) / Double(active), decimals: 1)) of the devices it was active on)"
        }
        var sentence = "Who enrolled: " + mix.joined(separator: ", ") + "."
        if let metric = enrollment.variants.first?.metrics.first?.name,
          let baseline = enrollment.variants.first(where: { $0.name == experiment.baseline })?.metrics.first?.trueMean,
          let treated = enrollment.variants.first(where: { $0.name != experiment.baseline })?.metrics.first?.trueMean, baseline > 0
        {
          sentence += " Over the enrolled devices the true lift on \(metric) is "
            + "\(NumberFormat.signedPercent(treated / baseline - 1)), which is what the enrolled estimate measures."
        }
        lines.append(sentence)
        lines.append("")
      }
      if let never = enrollment.neverEnrolled {
        lines.append(
          "\(NumberFormat.count(never.exposed)) devices had the experiment active but never enrolled; counting them as the "
            + "baseline mixes in devices the precondition or the handshake kept out, which are not like the enrolled ones.")
        lines.append("")
      }
      if !enrollment.conditionMet.isEmpty {
        lines.append(
          "Precondition met by \(NumberFormat.count(enrollment.conditionMet.reduce(0, +))) devices; by day: "
            + enrollment.conditionMet.enumerated().filter { $0.element > 0 }
            .map { "day \($0.offset) \(NumberFormat.count($0.element))" }.joined(separator: ", ") + ".")
        lines.append("")
      }
      if !enrollment.conditionLapsed.isEmpty {
        let lapsed = enrollment.conditionLapsed.reduce(0, +)
        lines.append(
          "Precondition stopped holding for \(NumberFormat.count(lapsed)) devices, on which the app no longer ran the "
            + "experiment from then (they stay in the variant they enrolled in); by day: "
            + enrollment.conditionLapsed.enumerated().filter { $0.element > 0 }
            .map { "day \($0.offset) \(NumberFormat.count($0.element))" }.joined(separator: ", ") + ".")
        lines.append("")
      }
      if !enrollment.handshakes.isEmpty {
        let active = (0..<document.days).filter { day in enrollment.handshakes.contains { $0.days[day] > 0 } }
        lines.append("devtodev's handshake, launches by outcome and day:")
        lines.append("")
        lines.append("| Day | " + enrollment.handshakes.map(\.outcome).joined(separator: " | ") + " |")
        lines.append("|---:|" + enrollment.handshakes.map { _ in "---:|" }.joined())
        for day in active {
          lines.append("| \(day) | " + enrollment.handshakes.map { NumberFormat.count($0.days[day]) }.joined(separator: " | ") + " |")
        }
        lines.append("")
      }
      if !enrollment.restoredUsers.isEmpty {
        let restored = enrollment.restoredUsers.reduce(0, +), newUsers = enrollment.newUsers.reduce(0, +)
        lines.append(
          "On devices two users share, the user changed \(NumberFormat.count(restored + newUsers)) times: "
            + "\(NumberFormat.count(restored)) times to a user who had started the test, who had it back at once, and "
            + "\(NumberFormat.count(newUsers)) times to one who had not, who saw the defaults until their own handshake.")
        lines.append("")
      }
    }
  }

  /// What each change on a hash-bucketed service's dashboard did to the
  /// devices whose configuration it reached.
  private mutating func writeServiceChanges() {
    let changes = document.experiments.flatMap { experiment in experiment.changes.map { (experiment, $0) } }
    guard !changes.isEmpty else { return }
    lines.append("## Changes on the service")
    lines.append("")
    lines.append("What each change on the dashboard did to the devices that launched before it and again with it, comparing the two launches (docs/rules/).")
    lines.append("")
    lines.append("| Day | Experiment | Change | Devices reached | Kept | Moved | Left | Entered |")
    lines.append("|---:|---|---|---:|---:|---:|---:|---:|")
    for (experiment, change) in changes {
      lines.append(
        "| \(change.day) | \(experiment.name) (\(experiment.source)) | \(change.change) | \(NumberFormat.count(change.devices)) | "
          + "\(NumberFormat.count(change.kept)) | \(NumberFormat.count(change.moved)) | \(NumberFormat.count(change.left)) | "
          + "\(NumberFormat.count(change.entered)) |")
    }
    lines.append("")
    for (experiment, change) in changes where change.moved > 0 && change.devices > 0 {
      lines.append(
        "- \(experiment.name), day \(change.day) (\(change.change)): \(NumberFormat.count(change.moved)) devices "
          + "(\(NumberFormat.percent(Double(change.moved) / Double(change.devices), decimals: 1)) of those reached) changed "
          + "variation; each carries a mix of both variations' effects.")
    }
    lines.append("")
    if let stale = document.delivery?.staleActivations, stale.contains(where: { $0 > 0 }) {
      lines.append(
        "\(NumberFormat.count(stale.reduce(0, +))) launches activated their experiments before that launch's datafile "
          + "arrived, and kept the previous datafile's activations for the session; a device meets a change one launch "
          + "later that way (by day: " + stale.enumerated().filter { $0.element > 0 }
          .map { "day \($0.offset) \(NumberFormat.count($0.element))" }.joined(separator: ", ") + ").")
      lines.append("")
    }
  }

  /// Optimizely's feature flags: the launches they were on, by day, and the
  /// launches the SDK answered false for want of a datafile with the flag.
  private mutating func writeFlags() {
    guard let flags = document.delivery?.flags, !flags.isEmpty else { return }
    lines.append("## Feature flags")
    lines.append("")
    lines.append(
      "Launches with each flag on, by day. A flag is read with the latest datafile the device holds, whenever the app reads "
        + "it (seed 001: \"The latest value will always be returned for a feature flag\"); a device without a datafile that "
        + "has the flag gets false, as the SDK answers on an error.")
    lines.append("")
    lines.append("| Flag | Day | On | False without the flag |")
    lines.append("|---|---:|---:|---:|")
    for flag in flags {
      for day in 0..<document.days where flag.on[day] > 0 || flag.unknown[day] > 0 {
        lines.append("| \(flag.name) | \(day) | \(NumberFormat.count(flag.on[day])) | \(NumberFormat.count(flag.unknown[day])) |")
      }
    }
    lines.append("")
  }

  // MARK: - Delivery

  private mutating func writeDelivery(_ delivery: DeliveryResult) {
    let stabilized = delivery.stabilized.last ?? 0
    let failed = delivery.failedFetches.reduce(0, +), overridden = delivery.overridden.reduce(0, +)
    let fallbacks = delivery.defaultFallbacks.reduce(0, +)
    guard stabilized > 0 || !delivery.enrollment.isEmpty else { return }
    lines.append("## Delivery")
    lines.append("")
    if !delivery.tracking.isEmpty {
      let totals = delivery.tracking.map { "\(NumberFormat.count($0.days.reduce(0, +))) \($0.name)" }
      lines.append(
        "The app reads the remote values as KOMA does: after each successful fetch every key is tracked once ("
          + totals.joined(separator: ", ") + "; per day in results.json). A baseline-flagged value is shown without "
          + "its flag and counted in its own group."
          + (delivery.tracking.contains { $0.name == "customValue" }
            ? " On devices with the app's custom or debug values (custom first), those values stand in for valid remote "
              + "ones, which are then neither shown nor tracked as a group (customValue, debugValue)." : ""))
      lines.append("")
    }
    if !delivery.enrollment.isEmpty {
      lines.append(
        "Devices fetch the remote configuration at each launch; a failed fetch leaves them with their last data. A device "
          + "that stabilizes before its first successful fetch never receives the remote experiments, since stabilization "
          + "hides new experiments.")
      lines.append("")
    }
    var facts: [String] = []
    if stabilized > 0 {
      let first = delivery.stabilized.firstIndex { $0 > 0 } ?? 0
      facts.append("\(NumberFormat.count(stabilized)) devices called stabilize, the first on day \(first)")
    }
    if !delivery.enrollment.isEmpty {
      facts.append("\(NumberFormat.count(failed)) fetches failed or missed the time-out (\(NumberFormat.percent(document.launches > 0 ? Double(failed) / Double(document.launches) : nil, decimals: 1)) of launches); those devices kept their last data")
      facts.append("overrides changed a value on \(NumberFormat.count(overridden)) launches of stabilized devices")
      facts.append("\(NumberFormat.count(fallbacks)) values fell back to the app's default")
    }
    lines.append(facts.joined(separator: "; ") + ".")
    lines.append("")
    if !delivery.enrollment.isEmpty {
      lines.append("| Remote experiment | Devices it could reach | Enrolled | Never enrolled | Mean days to enrol | 90% enrolled within |")
      lines.append("|---|---:|---:|---:|---:|---:|")
      for enrollment in delivery.enrollment {
        let never = enrollment.eligible - enrollment.enrolled
        lines.append(
          "| \(enrollment.experiment) | \(NumberFormat.count(enrollment.eligible)) | \(NumberFormat.count(enrollment.enrolled)) | "
            + "\(NumberFormat.count(never)) (\(NumberFormat.percent(enrollment.eligible > 0 ? Double(never) / Double(enrollment.eligible) : nil, decimals: 1))) | "
            + "\(NumberFormat.decimal(enrollment.meanDaysToEnroll)) | \(enrollment.daysToEnroll(share: 0.9).map { "\($0) days" } ?? "–") |")
      }
      lines.append("")
    }
    for churn in delivery.churn {
      lines.append(
        "- \(churn.experiment)'s \(churn.variant) drove devices away while it carried its bug: \(NumberFormat.count(churn.exposed)) devices "
          + "held it, \(NumberFormat.count(churn.lost)) stopped launching, \(NumberFormat.count(churn.stuck)) had stabilized on it so that only an "
          + "override could reach them, and \(NumberFormat.count(churn.rescued)) later ran the variant without the bug.")
    }
    if !delivery.churn.isEmpty { lines.append("") }
    let days = Array(0..<document.days)
    // Only what happened: a series of zeros, or a chart of nothing but zeros, says nothing.
    let series = [
      LineChart.Series(name: "devices stabilized so far", values: delivery.stabilized.map(Double.init), colour: 0),
      LineChart.Series(name: "failed fetches that day", values: delivery.failedFetches.map(Double.init), colour: 1),
      LineChart.Series(name: "overridden launches that day", values: delivery.overridden.map(Double.init), colour: 2),
      LineChart.Series(name: "default fallbacks that day", values: delivery.defaultFallbacks.map(Double.init), colour: 3),
    ].filter { $0.values.contains { $0 != 0 } }
    guard !series.isEmpty, document.days > 1 else { return }
    let chart = LineChart(
      title: "Delivery per day", xLabel: "day", yLabel: "devices or launches", xValues: days, series: series,
      formatY: { NumberFormat.count(Int($0.rounded())) })
    charts.append(("\(document.scenario)-delivery.svg", chart.svg))
    lines.append("![Delivery per day](\(document.scenario)-delivery.svg)")
    lines.append("")
  }

  /// A share of replications with its 95% interval: "12.5% (5.4% to 26.2%)".
  static func share(_ share: Share) -> String {
    NumberFormat.percent(share.rate, decimals: 1)
      + (share.lower.map { lower in
        " (\(NumberFormat.percent(lower, decimals: 1)) to \(NumberFormat.percent(share.upper, decimals: 1)))"
      } ?? "")
  }


  // MARK: - Calibration

  private mutating func writeCalibration(_ calibration: Calibration) {
    lines.append("## Calibration over \(NumberFormat.count(calibration.replications)) replications")
    lines.append("")
    lines.append("How often the analysis was right when the scenario was run again with other seeds.")
    lines.append("")
    let decided = calibration.experiments.flatMap { experiment in
      experiment.metrics.compactMap { metric in metric.decisions.map { (experiment.name, metric.metric, $0) } }
    }
    if !decided.isEmpty {
      lines.append("What the recommendations did, with 95% intervals: a right ship ships a variant that truly beats the baseline; a wrong sign is a significant decision against the true lift's direction.")
      lines.append("")
      lines.append("| Experiment | Metric | Right ship | Wrong ship | Keep baseline | Keep running | Withheld | Wrong sign |")
      lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
      for (experiment, metric, decisions) in decided {
        let cells = [
          decisions.rightShip, decisions.wrongShip, decisions.keepBaseline, decisions.inconclusive, decisions.withheld,
          decisions.wrongSign,
        ].map(NumberFormat.compactShare)
        lines.append("| \(experiment) | \(metric) | " + cells.joined(separator: " | ") + " |")
      }
      lines.append("")
    }
    lines.append("Where the true lift is 0 the share of significant results is the false-positive rate, elsewhere the power.")
    lines.append("")
    lines.append("| Experiment | Metric | Variant | True lift | Mean lift | Significant | Interval held the truth | Peeking significant | Always-valid significant |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for experiment in calibration.experiments {
      for metric in experiment.metrics {
        for comparison in metric.comparisons {
          lines.append(
            "| \(experiment.name) | \(metric.metric) | \(comparison.variant) | \(NumberFormat.signedPercent(comparison.trueLift)) | "
              + "\(NumberFormat.signedPercent(comparison.meanLift)) | "
              + "\(NumberFormat.percent(comparison.significantRate, decimals: 1)) | \(NumberFormat.percent(comparison.coverage, decimals: 1)) | "
              + "\(NumberFormat.percent(comparison.peekingSignificantRate, decimals: 1)) | \(NumberFormat.percent(comparison.alwaysValidSignificantRate, decimals: 1)) |")
        }
      }
    }
    lines.append("")
    for experiment in calibration.experiments {
      for metric in experiment.metrics {
        let winners = metric.winnerRates.filter { $0.rate > 0 }.map { "\($0.variant) \(NumberFormat.percent($0.rate, decimals: 1))" }
        lines.append(
          "- \(experiment.name), \(metric.metric): declared winner " + (winners.isEmpty ? "never" : winners.joined(separator: ", "))
            + "; no winner \(NumberFormat.percent(metric.noWinnerRate, decimals: 1)); not trustworthy \(NumberFormat.percent(metric.notTrustworthyRate, decimals: 1)); "
            + "against the true winner (\(metric.trueWinner ?? "none")) the winner named was right in \(Self.share(metric.correct)), "
            + "wrong in \(Self.share(metric.wrong)) and withheld in \(Self.share(metric.abstained)).")
        for comparison in metric.comparisons {
          guard let obrienFleming = comparison.obrienFlemingSignificantRate, let pocock = comparison.pocockSignificantRate
          else { continue }
          lines.append(
            "- \(experiment.name), \(metric.metric), \(comparison.variant): with alpha spending over the daily looks, a look "
              + "crossed O'Brien–Fleming's boundary in \(NumberFormat.percent(obrienFleming, decimals: 1)) of the replications "
              + "and Pocock's in \(NumberFormat.percent(pocock, decimals: 1)).")
        }
        let safe = metric.comparisons.compactMap { comparison in
          comparison.safeRate.map { "\(comparison.variant) \(NumberFormat.percent($0, decimals: 1))" }
        }
        if !safe.isEmpty {
          lines.append("- \(experiment.name), \(metric.metric) guardrail: shown safe \(safe.joined(separator: ", ")).")
        }
        let unadjusted = metric.comparisons.compactMap { comparison in
          comparison.unadjustedSignificantRate.map { "\(comparison.variant) \(NumberFormat.percent($0, decimals: 1))" }
        }
        if !unadjusted.isEmpty {
          lines.append(
            "- \(experiment.name), \(metric.metric): adjusted by the covariate (CUPED) as above; unadjusted, significant in "
              + "\(unadjusted.joined(separator: ", ")).")
        }
      }
    }
    lines.append("")
  }
}

extension TransitionResult {
  var total: Int { kept + reassigned + deactivated + activated }
}
