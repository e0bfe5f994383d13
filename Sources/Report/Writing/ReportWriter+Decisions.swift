import Lab
import Results
import ScenarioFormat

/// The first screen's evidence: the per-metric lines, the decisions tables, red flags and hazards.
extension ReportWriter {
  /// The first screen: what the plan does over its replications and one
  /// decision per experiment (`DecisionSummary`); then, as the evidence, what
  /// each metric says, each variant's decision on it in a table narrow
  /// enough for a 980-pixel column, and what should stop a reader: results
  /// that contradict the truth, and the plan's hazards.
  mutating func writeDecisions() {
    heading(2, "What to do")
    append(DecisionSummary(document: document, settings: input.settings).blocks)
    writeEngineReadings()
    let analysed = document.experiments.filter { !$0.analysis.isEmpty }
    if !analysed.isEmpty {
      heading(2, "Evidence per metric")
      list(analysed.flatMap { experiment in
        experiment.analysis.map { analysis -> ReportText in
          "\(strong: experiment.name), \(analysis.metric): \(recommendationText(analysis, in: experiment))"
        }
      })
    }
    heading(2, "Decisions")
    let knowsTruth = document.experiments.contains { $0.analysis.contains(where: \.knowsTruth) }
    for experiment in document.experiments where experiment.analysis.contains(where: { !$0.comparisons.isEmpty }) {
      // A table per experiment, so that no column holds its name: the tables fit a 980-pixel column.
      paragraph("\(strong: experiment.name), each variant against \(experiment.baseline):")
      var decisions = ReportTable(
        columns: [
          .init("Variant"), .init("Metric"), .init("Decision"), .init("Lift (\(confidence) CI)", numeric: true),
          .init("Adj. p", numeric: true),
        ] + (knowsTruth ? [.init("Truth", numeric: true), .init("Right?")] : []))
      for analysis in experiment.analysis {
        for comparison in analysis.comparisons {
          decisions.append(
            [
              ReportText(comparison.variant), ReportText(analysis.metric), decisionCell(comparison.decision),
              ReportText(LiftText.short(comparison)), ReportText(NumberFormat.pValue(comparison.adjustedPValue)),
            ] + (knowsTruth ? [ReportText(NumberFormat.signedPercent(comparison.trueLift)), rightCell(comparison)] : []))
        }
      }
      table(decisions)
    }
    list(redFlags() + hazards())
  }

  /// The metric's recommendation as a sentence, then a sentence for each
  /// other variant that the recommendation leaves out.
  func recommendationText(_ analysis: MetricAnalysis, in experiment: ExperimentResult) -> ReportText {
    var sentences: [ReportText]
    var named: String?
    switch analysis.recommendation {
    case .ship(let variant):
      named = variant
      let comparison = analysis.comparisons.first { $0.variant == variant }
      let evidence = comparison.map {
        ": \(LiftText.cell($0, alpha: input.settings.alpha)), adjusted p = \(NumberFormat.pValue($0.adjustedPValue))."
      }
      sentences = ["\(strong: "Ship \(variant)")\(evidence ?? ".")"]
      if let warning = comparison?.skewWarning {
        sentences.append(ReportText(
          "Its interval may miss its level: the amounts' skewness (\(String(format: "%.1f", warning.skewness))) asks for "
            + "about \(NumberFormat.count(warning.needed)) devices an arm, and \(warning.variant) has "
            + "\(NumberFormat.count(warning.devices))."))
      }
    case .keepBaseline:
      sentences = ["\(strong: "Keep \(experiment.baseline)"): no variant beats it."]
    case .keepRunning(let devices):
      let reason =
        devices.map { ": about \(NumberFormat.count($0)) more devices per variant to detect \(plannedEffect(analysis))." }
        ?? ": not significant, and the power calculation asks for no more devices than it has (or cannot say how many); "
        + "the decision above says what to do."
      sentences = ["\(strong: "Keep running")\(reason)"]
    case .doNotTrust(let distrust):
      sentences = ["\(strong: "Do not trust"): \(reason(distrust, analysis: analysis))."]
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
        let more = devices.map { ": about \(NumberFormat.count($0)) more devices per variant." }
        sentences.append("\(variant) is inconclusive\(more ?? ".")")
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
  func truthText(_ analysis: MetricAnalysis, in experiment: ExperimentResult) -> String {
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
  func plannedEffect(_ analysis: MetricAnalysis) -> String {
    analysis.power.map { Self.describe($0.target) } ?? "the planned effect"
  }

  /// A decision in a few words, the details left to the lines above the table.
  func decisionCell(_ decision: Decision) -> ReportText {
    switch decision {
    case .ship: return "\(strong: "ship")"
    case .doNotShip(.worse): return "no ship: worse"
    case .doNotShip(.plannedEffectRuledOut): return "no ship: no gain"
    case .doNotShip(.guardrail): return "held by guardrail"
    case .inconclusive: return "inconclusive"
    case .notTrustworthy(let distrust):
      switch distrust {
      case .sampleRatioMismatch: return "untrusted: SRM"
      case .contamination(_, let share, _): return ReportText("untrusted: \(NumberFormat.percent(share, decimals: 0)) mixed")
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
  func rightCell(_ comparison: Comparison) -> ReportText {
    if case .notTrustworthy = comparison.decision { return "withheld" }
    guard let right = Self.agreesWithTruth(comparison) else { return "–" }
    return right ? "yes" : "\(strong: "no")"
  }

  /// Whether a decision agrees with the truth, `nil` where it claims nothing
  /// (inconclusive, withheld) or the truth is unknown.
  static func agreesWithTruth(_ comparison: Comparison) -> Bool? {
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
  func redFlags() -> [ReportText] {
    var flags: [ReportText] = []
    for experiment in document.experiments {
      for analysis in experiment.analysis where analysis.knowsTruth {
        for comparison in analysis.comparisons {
          guard let p = comparison.adjustedPValue ?? comparison.test.pValue, p < input.settings.alpha,
            let lift = comparison.meanDifference ?? comparison.lift, let truth = comparison.trueLift
          else { continue }
          let observed = comparison.liftIsUnbounded ? "an unbounded lift" : NumberFormat.signedPercent(comparison.lift)
          let subject = "\(experiment.name), \(analysis.metric): \(comparison.variant) is significant (\(observed), p = \(NumberFormat.pValue(p)))"
          if truth == 0 {
            flags.append("\(strong: "Red flag, false positive"): \(subject) but its true lift is 0.")
          } else if (lift < 0) != (truth < 0), lift != 0 {
            flags.append("\(strong: "Red flag, sign error"): \(subject) but its true lift is \(NumberFormat.signedPercent(truth)).")
          }
        }
      }
    }
    return flags
  }

  /// The plan's hazards, largest first: devices shown several variants of an
  /// experiment, and keys two experiments claimed at once.
  func hazards() -> [ReportText] {
    var hazards: [(share: Double, text: ReportText)] = []
    for experiment in document.experiments {
      let exposed = experiment.variants.map(\.firstExposed).reduce(0, +)
      guard exposed > 0, experiment.mixedDevices > 0 else { continue }
      let share = Double(experiment.mixedDevices) / Double(exposed)
      guard share >= 0.01 else { continue }
      let mixed = NumberFormat.count(experiment.mixedDevices)
      hazards.append((share, "\(strong: "Hazard"): \(NumberFormat.percent(share, decimals: 1)) of \(experiment.name)'s devices "
        + "(\(mixed)) were shown more than one variant; they blur every comparison of it."))
    }
    for conflict in document.conflicts where conflict.devices > 0 {
      let share = Double(conflict.devices) / Double(max(document.devices, 1))
      let met = "\(NumberFormat.count(conflict.devices)) devices (\(NumberFormat.percent(share, decimals: 1))) met "
        + conflict.experiments.joined(separator: " and ")
      hazards.append((share, "\(strong: "Hazard"): \(met) on the shared key \(code: conflict.key): the manager served one "
        + "and discarded the other's variant."))
    }
    return hazards.sorted { $0.share > $1.share }.map(\.text)
  }
}
