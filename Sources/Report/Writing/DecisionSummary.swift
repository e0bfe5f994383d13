import Results
import ScenarioFormat

/// The report's first screen: per experiment, what the plan does over its
/// replications (when there are some), then this run's one decision with the
/// numbers behind it. Every sentence is about the figures printed beside it.
struct DecisionSummary {
  let document: ResultsDocument
  let settings: AnalysisSettings

  var blocks: [ReportBlock] {
    var blocks: [ReportBlock] = []
    let decided = document.experiments.filter { $0.decision != nil }
    // A simulation knows its truth and can be replicated; real data can do neither.
    let simulated = decided.contains { $0.decision!.variants.contains { $0.trulyBetter != nil } }
    if let calibration = document.calibration, !decided.isEmpty {
      blocks.append(.heading(level: 3, "The plan over \(NumberFormat.count(calibration.replications)) replications"))
      blocks.append(.paragraph([
        "How often the experiment's one decision was right when the plan ran again with other seeds (95% intervals). "
          + "A ship is right when the variant truly beats the baseline on a success metric and truly loses less "
          + "than each guardrail's margin."
      ]))
      let plan = calibration.experiments.compactMap { experiment in
        experiment.decision.map { planLine(experiment.name, $0) + endsLine(experiment.name, calibration.adoptionEnds) }
      }
      if !plan.isEmpty { blocks.append(.list(plan)) }
      blocks.append(.heading(level: 3, "This run (replication 1 of \(NumberFormat.count(calibration.replications)))"))
    } else {
      blocks.append(.heading(level: 3, simulated || decided.isEmpty ? "This run" : "The decision"))
    }
    let runs = document.experiments.map { experiment -> ReportText in
      guard let decision = experiment.decision else { return "\(strong: experiment.name): no metrics to decide on." }
      return "\(strong: experiment.name): \(runLine(decision, experiment))"
    }
    if !runs.isEmpty { blocks.append(.list(runs)) }
    if document.calibration == nil, simulated {
      blocks.append(.paragraph([
        "One draw of the plan: \(code: "bench SCENARIO") without \(code: "--replications 1") runs the plan's replications "
          + "and says how often it decides right."
      ]))
    }
    return blocks
  }

  // MARK: - Over the replications

  private func planLine(_ name: String, _ rates: DecisionRates) -> ReportText {
    func share(_ share: Share) -> String { NumberFormat.compactShare(share) }
    var text = ""
    if rates.knowsTruth {
      text += "right ship \(share(rates.rightShip)), wrong ship \(share(rates.wrongShip)), "
    } else {
      text += "ship \(share(Share(count: rates.rightShip.count + rates.wrongShip.count, of: rates.rightShip.of, lower: nil, upper: nil))), "
    }
    text += "keep baseline \(share(rates.keepBaseline)), keep running \(share(rates.keepRunning)), "
      + "withheld \(share(rates.withheld))"
    if rates.knowsTruth { text += ", wrong sign \(share(rates.wrongSign))" }
    text += "."
    if let devices = rates.devicesPerVariant {
      text += " The decision ships a variant of the planned effect with \(NumberFormat.trim(percent: settings.power)) "
        + "power from about \(NumberFormat.count(devices)) devices per variant; the plan gives its smallest arm about "
        + "\(NumberFormat.count(rates.smallestArm))."
    }
    return "\(strong: name): \(text)"
  }

  /// How far the decision moves with every adoption curve at each end of its
  /// interval (`--world-ends`): the right ships (or ships, without a truth)
  /// and the smallest arm at the slowest and at the fastest end; nothing
  /// when the run did not ask.
  private func endsLine(_ name: String, _ ends: [AdoptionEndCalibration]) -> ReportText {
    let rates = ends.compactMap { end in end.experiments.first { $0.name == name }?.decision.map { (end.end, $0) } }
    guard !rates.isEmpty else { return "" }
    let knowsTruth = rates.allSatisfy { $0.1.knowsTruth }
    let figures = rates.map { end, rates in
      let shipped = knowsTruth
        ? rates.rightShip : Share(count: rates.rightShip.count + rates.wrongShip.count, of: rates.rightShip.of, lower: nil, upper: nil)
      return "\(NumberFormat.compactShare(shipped)) at the \(end) end (smallest arm about \(NumberFormat.count(rates.smallestArm)))"
    }
    return ReportText(
      " With every adoption curve at an end of its 95% interval, \(knowsTruth ? "right ship" : "ship") "
        + figures.joined(separator: ", ") + ".")
  }

  // MARK: - This run

  private func runLine(_ decision: ExperimentDecision, _ experiment: ExperimentResult) -> ReportText {
    var sentences: [ReportText] = []
    var named: String?
    switch decision.action {
    case .ship(let variant):
      named = variant
      let shipped = decision.variants.first { $0.variant == variant }
      let evidence = shipped.map { ": " + shipEvidence($0, decision, experiment) }
      sentences.append("\(strong: "Ship \(variant)")\(evidence ?? ".")")
    case .keepBaseline:
      sentences.append("\(strong: "Keep \(experiment.baseline)")\(keepBaselineReason(decision))")
    case .keepRunning(let devices):
      let reason =
        (devices.map { "about \(NumberFormat.count($0)) more devices per variant" } ?? "more devices")
          + (decision.devicesPerVariant.map {
            ", to the \(NumberFormat.count($0)) per variant with which the decision ships a variant of the planned effect "
              + "with \(NumberFormat.trim(percent: settings.power)) power."
          } ?? "; the decision's sample is not computable (a baseline of 0 needs analysis.minimumDetectableDifference).")
      sentences.append("\(strong: "Keep running"): \(reason)")
    case .doNotTrust(let distrust):
      named = decision.variants.first { $0.action == .doNotTrust(distrust) }?.variant
      sentences.append("\(strong: "Do not trust"): \(named.map { "\($0): " } ?? "")\(clause(distrust)).")
      if let variant = decision.variants.first(where: { $0.variant == named }), variant.readableExcludingContaminated {
        sentences.append(Self.excludeContaminatedHint)
      }
    }
    for variant in decision.variants where variant.variant != named {
      sentences.append(variantSentence(variant, devicesPerVariant: decision.devicesPerVariant))
    }
    if case .ship = decision.action {} else if let level = levels(decision) {
      sentences.append(ReportText(level))
    }
    return sentences.joined(separator: " ")
  }

  /// "deleted it in 2.0" for a version, "removed it on day 28" for a dashboard change.
  static func retirement(_ label: String) -> String {
    label.hasPrefix("day ") ? "removed it on \(label)" : "deleted it in \(label)"
  }

  private static let excludeContaminatedHint: ReportText =
    "With \(code: "\"attribution\": \"exclude-contaminated\"") only the devices shown a single variant would count, and "
      + "both arms keep enough of them for a test."

  private func shipEvidence(_ variant: VariantDecision, _ decision: ExperimentDecision, _ experiment: ExperimentResult) -> String {
    var text: String
    if let metric = variant.action.shipMetric,
      let comparison = experiment.analysis.first(where: { $0.metric == metric })?.comparisons.first(where: { $0.variant == variant.variant })
    {
      text = "\(metric) \(LiftText.cell(comparison, alpha: settings.alpha)), one-sided p = "
        + "\(NumberFormat.pValue(variant.oneSidedPValue))"
      if let level = decision.testAlpha { text += " below the decision's \(NumberFormat.trim(level))" }
    } else {
      text = "no success metric; every guardrail is shown safe"
    }
    if !decision.guardrails.isEmpty {
      text += "; " + decision.guardrails.map { "\($0.metric) shown safe (margin \(NumberFormat.trim(percent: $0.margin)))" }
        .joined(separator: ", ")
    }
    text += "; no success metric or guardrail significantly worse."
    if let truth = variant.trulyBetter {
      text += truth
        ? " It truly beats \(experiment.baseline) (\(NumberFormat.signedPercent(variant.trueLift))): right."
        : " Its true lift is \(NumberFormat.signedPercent(variant.trueLift)): wrong."
    }
    return text
  }

  private func keepBaselineReason(_ decision: ExperimentDecision) -> String {
    let remaining = decision.variants.filter { if case .retired = $0.action { false } else { true } }
    return remaining.isEmpty ? ": the plan retired every other variant, so nothing is left to decide." : "."
  }

  private func variantSentence(_ variant: VariantDecision, devicesPerVariant: Int?) -> ReportText {
    let name = variant.variant
    switch variant.action {
    case .ship(let metric): return "\(name) also cleared the rule\(metric.map { " (on \($0))" } ?? "")."
    case .keepBaseline(.deteriorates(let metric)):
      return "\(name) is significantly worse on \(metric) (one-sided p = \(NumberFormat.pValue(variant.oneSidedPValue)))."
    case .keepBaseline(.guardrailNotShownSafe(let metric)):
      return "\(name) won but \(metric) is not shown safe at the decision's sample: keep the baseline for it."
    case .keepBaseline(.noSuccess):
      let sample = devicesPerVariant.map { " (\(NumberFormat.count($0)) per variant)" } ?? ""
      return "\(name): the decision's sample\(sample) is reached and no success metric improved significantly, so an effect "
        + "as large as planned is unlikely."
    case .keepRunning(let devices, let guardrail):
      let more = devices.map { "about \(NumberFormat.count($0)) more devices per variant" } ?? "more devices"
      if let guardrail { return "\(name) wins, but \(guardrail) is not shown safe yet: \(more)." }
      return "\(name): keep running, \(more)."
    case .doNotTrust(let distrust):
      return "\(name): do not trust, \(clause(distrust))."
        + (variant.readableExcludingContaminated ? " " + Self.excludeContaminatedHint : "")
    case .retired(let label): return "\(name) is retired: the plan \(Self.retirement(label)), so it is not a candidate."
    }
  }

  /// The decision's levels in a sentence, for a reader who asks why a
  /// significant-looking lift did not ship.
  private func levels(_ decision: ExperimentDecision) -> String? {
    guard let alpha = decision.testAlpha else { return nil }
    let treatments = decision.variants.filter { if case .retired = $0.action { false } else { true } }.count
    return "A variant ships when one of \(decision.successMetrics.isEmpty ? "no success metrics" : decision.successMetrics.joined(separator: ", ")) "
      + "is better at one-sided p < \(NumberFormat.trim(alpha)) (α = \(NumberFormat.trim(settings.alpha)) over "
      + "\(max(decision.successMetrics.count, 1)) success metric\(decision.successMetrics.count == 1 ? "" : "s") × "
      + "\(treatments) variant\(treatments == 1 ? "" : "s"))"
      + (decision.guardrails.isEmpty ? "" : " and every guardrail is shown safe at the same level")
      + "."
  }

  private func clause(_ distrust: Distrust) -> String {
    switch distrust {
    case .sampleRatioMismatch(let pValue):
      return "sample ratio mismatch (p = \(NumberFormat.pValue(pValue))): the first exposures do not follow the configured split"
    case .contamination(let variant, let share, let devices):
      return "\(NumberFormat.percent(share, decimals: 0)) of \(variant)'s counted devices (\(NumberFormat.count(devices))) "
        + "were also shown another variant"
    case .peeking(let firstDay):
      return "significant only by a test read at every daily look" + (firstDay.map { " (first on day \($0))" } ?? "")
        + "; no look crossed its O'Brien–Fleming boundary"
    case .tooFewDevices(let variant, let devices, let minimum):
      return "\(variant) has \(NumberFormat.count(devices)) devices where a test needs \(NumberFormat.count(minimum))"
    case .undefinedTest(let variant, let test):
      return "the \(test) test of \(variant) is undefined (variance 0)"
    }
  }
}

extension VariantDecision.Action {
  /// The success metric a ship won on, if any.
  fileprivate var shipMetric: String? {
    if case .ship(let metric) = self { return metric }
    return nil
  }
}
