import Results
import ScenarioFormat
import Statistics

/// One decision per experiment over its success metrics and guardrails, the
/// way Spotify's Confidence decides (Schultzberg, Ankargren and Frånberg,
/// 2024): a treatment ships when one success metric is significantly better,
/// every guardrail is significantly non-inferior, no success metric or
/// guardrail is significantly worse and no quality check fails, with alpha
/// and beta shared so that the decision's false-ship rate is at most alpha
/// and its power at the planned effect at least the target
/// (`RiskAwareAllocation`). docs/statistics.md states the rule and measures it.
///
/// It reads the per-metric analyses the analyzer already made (their tests,
/// differences, non-inferiority tests and quality verdicts) and tests nothing
/// anew but at its own levels.
struct ExperimentDecider {
  let settings: AnalysisSettings

  func decide(_ experiment: ExperimentResult) -> ExperimentDecision? {
    guard let baseline = experiment.variants.firstIndex(where: { $0.name == experiment.baseline }) else { return nil }
    let metricNames = experiment.variants[baseline].metrics.map(\.name)
    guard !metricNames.isEmpty else { return nil }
    let success = settings.successMetrics(among: metricNames)
    let guardrails = metricNames.compactMap { name in settings.guardrails[name].map { (metric: name, margin: $0) } }
    let candidates = experiment.variants.indices.filter { $0 != baseline && experiment.variants[$0].retiredIn == nil }
    let allocation = RiskAwareAllocation(
      alpha: settings.alpha, power: settings.power, successMetrics: success.count, guardrails: guardrails.count,
      treatments: max(candidates.count, 1))
    let analyses = Dictionary(experiment.analysis.map { ($0.metric, $0) }, uniquingKeysWith: { first, _ in first })
    let devicesPerVariant = allocation.flatMap {
      sampleSize(experiment.variants[baseline].metrics, success: success, guardrails: guardrails, allocation: $0)
    }
    let counted = { (index: Int) in experiment.variants[index].metrics.first?.n ?? 0 }
    let smallestArm = ([baseline] + candidates).map(counted).min() ?? 0
    let variants = experiment.variants.indices.filter { $0 != baseline }.map { index in
      var decision = decideVariant(
        index, baseline: baseline, in: experiment, analyses: analyses, success: success, guardrails: guardrails,
        testAlpha: allocation?.testAlpha,
        devicesNeeded: devicesPerVariant.map { $0 - min(counted(index), counted(baseline)) })
      // The truth on the metric a ship won on, else on the first success metric: what a wrong sign is read against.
      let judged: String?
      if case .ship(let metric?) = decision.action { judged = metric } else { judged = success.first }
      decision.trueLift = judged.flatMap { analyses[$0]?.comparison(of: decision.variant)?.trueLift }
      decision.trulyBetter = truth(of: decision.variant, analyses: analyses, success: success, guardrails: guardrails)
      return decision
    }
    let remaining = variants.filter { if case .retired = $0.action { false } else { true } }
    return ExperimentDecision(
      action: action(remaining, srm: experiment.srm, primary: success.first.flatMap { analyses[$0] }),
      variants: variants, successMetrics: success, guardrails: guardrails, testAlpha: allocation?.testAlpha,
      testBeta: allocation?.testBeta, deteriorationAlpha: settings.deteriorationAlpha,
      devicesPerVariant: devicesPerVariant, smallestArm: smallestArm)
  }

  /// The experiment's action from its remaining variants' decisions, in
  /// order: a sample ratio mismatch withholds everything; else ship the
  /// shipped variant with the largest difference on the first success
  /// metric; else keep running while a variant needs devices; else do not
  /// trust while a variant is withheld; else keep the baseline.
  private func action(_ variants: [VariantDecision], srm: SRMResult?, primary: MetricAnalysis?) -> ExperimentDecision.Action {
    guard !variants.isEmpty else { return .keepBaseline }
    if let srm, srm.isMismatch { return .doNotTrust(.sampleRatioMismatch(pValue: srm.pValue ?? 0)) }
    let shipped = variants.filter { if case .ship = $0.action { true } else { false } }
    if let best = shipped.max(by: { difference($0.variant, primary) < difference($1.variant, primary) }) {
      return .ship(best.variant)
    }
    var needed: [Int?] = [], distrust: [Distrust] = []
    for variant in variants {
      switch variant.action {
      case .keepRunning(let devices, _): needed.append(devices)
      case .doNotTrust(let reason): distrust.append(reason)
      case .ship, .keepBaseline, .retired: break
      }
    }
    if !needed.isEmpty { return .keepRunning(devicesNeeded: needed.compactMap { $0 }.max()) }
    if let worst = distrust.min(by: { $0.rank < $1.rank }) { return .doNotTrust(worst) }
    return .keepBaseline
  }

  private func difference(_ variant: String, _ primary: MetricAnalysis?) -> Double {
    primary?.comparison(of: variant)?.meanDifference ?? 0
  }

  /// One treatment's decision, in docs/statistics.md's order: retired, then
  /// what invalidates its comparisons, then a significant deterioration, then
  /// a ship, then whether the decision's sample is reached.
  private func decideVariant(
    _ index: Int, baseline: Int, in experiment: ExperimentResult, analyses: [String: MetricAnalysis], success: [String],
    guardrails: [(metric: String, margin: Double)], testAlpha: Double?, devicesNeeded: Int?
  ) -> VariantDecision {
    let variant = experiment.variants[index]
    if let version = variant.retiredIn { return VariantDecision(variant: variant.name, action: .retired(version: version)) }
    let roles = success + guardrails.map(\.metric)
    let comparisons = roles.map { analyses[$0]?.comparison(of: variant.name) }
    if let srm = experiment.srm, srm.isMismatch {
      return VariantDecision(variant: variant.name, action: .doNotTrust(.sampleRatioMismatch(pValue: srm.pValue ?? 0)))
    }
    let reasons = comparisons.compactMap { comparison -> Distrust? in
      guard case .notTrustworthy(let reason)? = comparison?.decision else { return nil }
      switch reason {
      case .sampleRatioMismatch, .contamination, .tooFewDevices: return reason
      // Peeking is judged on the decision's own success tests below; an
      // undefined test (nothing varies) is no evidence either way.
      case .peeking, .undefinedTest: return nil
      }
    }
    if let worst = reasons.min(by: { $0.rank < $1.rank }) {
      var decision = VariantDecision(variant: variant.name, action: .doNotTrust(worst))
      if case .contamination = worst {
        let clean = [variant, experiment.variants[baseline]].map { $0.exposed - $0.contaminated }
        decision.readableExcludingContaminated = clean.allSatisfy { $0 >= settings.minimumDevicesPerVariant }
      }
      return decision
    }
    for (metric, comparison) in zip(roles, comparisons) {
      if let p = oneSided(comparison, better: false), p < settings.deteriorationAlpha {
        var decision = VariantDecision(variant: variant.name, action: .keepBaseline(.deteriorates(metric: metric)))
        decision.oneSidedPValue = p
        return decision
      }
    }
    guard let testAlpha else {
      return VariantDecision(variant: variant.name, action: .keepRunning(devicesNeeded: nil, waitingFor: nil))
    }
    let won = zip(success, comparisons).first { oneSided($0.1, better: true).map { $0 < testAlpha } ?? false }?.0
    if let won, settings.dailyLooks, let looks = analyses[won]?.comparison(of: variant.name)?.looks, !looks.isEmpty,
      !looks.contains(where: { $0.crosses($0.obrienFlemingAlpha) })
    {
      let firstDay = looks.first { ($0.pValue ?? 1) < settings.alpha }?.day
      return VariantDecision(variant: variant.name, action: .doNotTrust(.peeking(firstDay: firstDay)))
    }
    let notShownSafe = guardrails.first { guardrail in
      guard let test = analyses[guardrail.metric]?.comparison(of: variant.name)?.nonInferiority?.test.pValue else { return true }
      return test >= testAlpha
    }?.metric
    let reached = devicesNeeded.map { $0 <= 0 } ?? false
    if won != nil || success.isEmpty {
      guard let notShownSafe else {
        var decision = VariantDecision(variant: variant.name, action: .ship(metric: won))
        decision.oneSidedPValue = won.flatMap { oneSided(analyses[$0]?.comparison(of: variant.name), better: true) }
        return decision
      }
      return VariantDecision(
        variant: variant.name,
        action: reached ? .keepBaseline(.guardrailNotShownSafe(metric: notShownSafe)) : .keepRunning(devicesNeeded: devicesNeeded, waitingFor: notShownSafe))
    }
    return VariantDecision(
      variant: variant.name, action: reached ? .keepBaseline(.noSuccess) : .keepRunning(devicesNeeded: devicesNeeded, waitingFor: nil))
  }

  /// The one-sided p-value that the variant is better (or worse) than the
  /// baseline: half the two-sided p-value in the estimate's direction, one
  /// minus that against it; exact for the z and t tests, whose statistics
  /// are symmetric, and an approximation for Fisher's exact test of small
  /// counts. `nil` without a test.
  private func oneSided(_ comparison: Comparison?, better: Bool) -> Double? {
    guard let comparison, let p = comparison.test.pValue, let difference = comparison.meanDifference else { return nil }
    let favours = better ? difference > 0 : difference < 0
    return favours ? p / 2 : 1 - p / 2
  }

  /// The devices per variant the decision needs: the largest of every
  /// success metric's test of the planned effect and every guardrail's
  /// non-inferiority test at its margin, at the allocation's levels, from
  /// the baseline's observed rate or mean and variance.
  private func sampleSize(
    _ baseline: [MetricSummary], success: [String], guardrails: [(metric: String, margin: Double)],
    allocation: RiskAwareAllocation
  ) -> Int? {
    var largest = 0
    for summary in baseline {
      guard let mean = summary.mean else { return nil }
      let variance = summary.isConversion ? mean * (1 - mean) : summary.variance ?? 0
      let n: Int?
      if success.contains(summary.name) {
        let difference = settings.minimumDetectableDifferences[summary.name] ?? mean * settings.minimumDetectableEffect
        n = summary.isConversion
          ? allocation.sampleSize(baselineRate: mean, treatmentRate: min(mean + difference, 1))
          : allocation.sampleSize(difference: difference, controlVariance: variance, treatmentVariance: variance)
      } else if let margin = guardrails.first(where: { $0.metric == summary.name })?.margin {
        n = allocation.sampleSize(difference: mean * margin, controlVariance: variance, treatmentVariance: variance)
      } else {
        continue
      }
      guard let n else { return nil }
      largest = max(largest, n)
    }
    return largest
  }

  /// Whether the variant truly beats the baseline on some success metric
  /// (the null the rule's false-ship bound is about: better on none) and
  /// truly loses less than each guardrail's margin; `nil` where a truth it
  /// needs is unknown.
  private func truth(
    of variant: String, analyses: [String: MetricAnalysis], success: [String], guardrails: [(metric: String, margin: Double)]
  ) -> Bool? {
    var better = success.isEmpty
    for metric in success {
      guard let lift = analyses[metric]?.comparison(of: variant)?.trueLift else { return nil }
      if lift > 1e-12 { better = true }
    }
    for guardrail in guardrails {
      guard let lift = analyses[guardrail.metric]?.comparison(of: variant)?.trueLift else { return nil }
      if lift < -guardrail.margin + 1e-12 { better = false }
    }
    return better
  }
}

extension MetricAnalysis {
  /// The comparison of `variant` against the baseline, if it has one.
  func comparison(of variant: String) -> Comparison? {
    comparisons.first { $0.variant == variant }
  }
}
