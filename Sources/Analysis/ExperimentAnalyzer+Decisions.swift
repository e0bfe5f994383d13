import Foundation
import Results
import ScenarioFormat
import Statistics

/// The per-metric decisions: each comparison's decision in docs/statistics.md's order, the
/// recommendation from them, the guardrails' hold on a ship, and the power calculation behind
/// "keep running".
extension ExperimentAnalyzer {
  /// The variant with the highest true lift above 0, where every comparison knows its truth.
  func trueWinner(_ comparisons: [Comparison]) -> String? {
    guard comparisons.allSatisfy({ $0.trueLift != nil }) else { return nil }
    return comparisons.filter { $0.trueLift! > 1e-12 }.max { $0.trueLift! < $1.trueLift! }?.variant
  }

  /// Each comparison's decision, from the devices each variant counts, in
  /// docs/statistics.md's order: what invalidates the comparison (a sample
  /// ratio mismatch, contamination, peeking, too few devices, an undefined
  /// test), then significance: a significant variant ships when it is
  /// better and does not when it is worse; a non-significant one does not
  /// ship when its interval rules out the planned lift, else it is
  /// inconclusive with the devices still needed. Low power is no veto: a
  /// significant result carries its type S and type M errors instead.
  func decide(
    _ comparisons: [Comparison], in experiment: ExperimentResult, counts: [Int], baseline: Int, srm: SRMResult,
    power: PowerSummary, baselineValue: Double?
  ) -> [Comparison] {
    let contamination = experiment.variants.map(contaminatedCounted)
    let planned: Double?
    switch power.target {
    case .lift(let lift): planned = baselineValue.map { $0 * lift }
    case .difference(let difference): planned = difference
    }
    return comparisons.map { comparison in
      var comparison = comparison
      let treatment = experiment.variants.firstIndex { $0.name == comparison.variant }!
      comparison.decision = decision(
        comparison, treatment: treatment, baseline: baseline, in: experiment, counts: counts, srm: srm,
        contamination: contamination, power: power)
      switch comparison.decision {
      case .ship, .doNotShip(.worse):
        if let planned, let standardError = comparison.standardError,
          let design = Retrodesign(difference: planned, standardError: standardError, alpha: settings.alpha)
        {
          comparison.designErrors = DesignErrors(power: design.power, typeS: design.typeS, exaggeration: design.exaggeration)
        }
      default: break
      }
      return comparison
    }
  }

  func decision(
    _ comparison: Comparison, treatment: Int, baseline: Int, in experiment: ExperimentResult, counts: [Int],
    srm: SRMResult, contamination: [Int], power: PowerSummary
  ) -> Decision {
    if srm.isMismatch { return .notTrustworthy(.sampleRatioMismatch(pValue: srm.pValue ?? 0)) }
    let shares = [treatment, baseline].map { arm in
      (arm: arm, share: counts[arm] > 0 ? Double(contamination[arm]) / Double(counts[arm]) : 0)
    }
    if let worst = shares.max(by: { $0.share < $1.share }), worst.share > Self.contaminationThreshold {
      return .notTrustworthy(.contamination(
        variant: experiment.variants[worst.arm].name, share: worst.share, devices: contamination[worst.arm]))
    }
    let fewest = counts[treatment] < counts[baseline] ? treatment : baseline
    if comparison.tooFewDevices || counts[fewest] < settings.minimumDevicesPerVariant {
      return .notTrustworthy(.tooFewDevices(
        variant: experiment.variants[fewest].name, devices: counts[fewest], minimum: settings.minimumDevicesPerVariant))
    }
    guard let p = comparison.adjustedPValue, let difference = comparison.meanDifference else {
      return .notTrustworthy(.undefinedTest(variant: comparison.variant, test: comparison.test.test))
    }
    if p < settings.alpha, difference != 0 {
      if settings.dailyLooks, !comparison.looks.isEmpty,
        !comparison.looks.contains(where: { $0.crosses($0.obrienFlemingAlpha) })
      {
        return .notTrustworthy(.peeking(firstDay: comparison.looks.first { ($0.pValue ?? 1) < settings.alpha }?.day))
      }
      return difference > 0 ? .ship : .doNotShip(.worse)
    }
    if case .lift(let planned) = power.target, let upper = comparison.liftInterval?.upper, upper < planned {
      return .doNotShip(.plannedEffectRuledOut(upper: upper, planned: planned))
    }
    let needed = power.requiredPerVariant.map { $0 - counts[fewest] }
    return .inconclusive(devicesNeeded: needed.flatMap { $0 > 0 ? $0 : nil })
  }

  /// The devices a variant counts that were also shown another variant of
  /// the experiment. Under first-exposure attribution a variant counts the
  /// devices first shown it: its devices shown it alone (exposed less
  /// contaminated) and, beyond them, devices that went on to another
  /// variant. Excluding contaminated devices counts none.
  func contaminatedCounted(_ variant: VariantResult) -> Int {
    switch settings.attribution {
    case .excludeContaminated: 0
    case .firstExposure: max(0, variant.firstExposed - (variant.exposed - variant.contaminated))
    }
  }

  /// The recommendation from the variants' decisions: ship the best variant
  /// decided "ship" (by the difference of means); else keep running while
  /// some variant is inconclusive; else do not trust, for the highest-ranked
  /// reason, while some variant is not trustworthy; else keep the baseline.
  static func recommend(_ comparisons: [Comparison]) -> Recommendation {
    if let best = comparisons.filter({ $0.decision == .ship })
      .max(by: { ($0.meanDifference ?? 0) < ($1.meanDifference ?? 0) })
    {
      return .ship(best.variant)
    }
    var needed: [Int?] = [], distrust: [Distrust] = []
    for comparison in comparisons {
      switch comparison.decision {
      case .inconclusive(let devices): needed.append(devices)
      case .notTrustworthy(let reason): distrust.append(reason)
      case .ship, .doNotShip: break
      }
    }
    if !needed.isEmpty { return .keepRunning(devicesNeeded: needed.compactMap { $0 }.max()) }
    if let worst = distrust.min(by: { $0.rank < $1.rank }) { return .doNotTrust(worst) }
    return .keepBaseline
  }

  /// A variant decided "ship" on one metric that a guardrail metric does not
  /// show safe is held: "do not ship" for that guardrail, and the metric's
  /// recommendation follows (Kohavi, Tang and Xu, chapter 21: a launch must
  /// clear its guardrails).
  func holdShipsFailingGuardrails(_ analyses: inout [MetricAnalysis]) {
    var unsafe: [String: String] = [:]
    for analysis in analyses {
      for comparison in analysis.comparisons where comparison.nonInferiority?.isSafe == false {
        unsafe[comparison.variant] = unsafe[comparison.variant] ?? analysis.metric
      }
    }
    guard !unsafe.isEmpty else { return }
    for index in analyses.indices {
      var held = false
      for position in analyses[index].comparisons.indices {
        let comparison = analyses[index].comparisons[position]
        guard comparison.decision == .ship, let guardrail = unsafe[comparison.variant] else { continue }
        analyses[index].comparisons[position].decision = .doNotShip(.guardrail(metric: guardrail))
        held = true
      }
      if held { analyses[index].recommendation = Self.recommend(analyses[index].comparisons) }
    }
  }

  /// The devices per variant needed to detect the metric's minimum
  /// detectable difference, or else the minimum detectable effect over the
  /// baseline's observed rate or mean, and the power the smallest variant
  /// achieves. A metric adjusted by its covariate is a mean whose spread is
  /// the baseline's adjusted variance: the smaller sample CUPED buys.
  func powerSummary(_ summaries: [MetricSummary], baseline: Int, adjustedVariance: Double?) -> PowerSummary {
    let control = summaries[baseline]
    let smallest = summaries.map(\.n).min() ?? 0
    let mean = control.mean ?? 0
    let target = settings.minimumDetectableDifferences[control.name].map(PowerTarget.difference)
      ?? .lift(settings.minimumDetectableEffect)
    let difference: Double, treatment: Double
    switch target {
    case .lift(let lift): (difference, treatment) = (mean * lift, min(mean * (1 + lift), 1))
    case .difference(let absolute): (difference, treatment) = (absolute, min(mean + absolute, 1))
    }
    if control.isConversion, adjustedVariance == nil {
      return PowerSummary(
        requiredPerVariant: Power.sampleSize(baseline: mean, treatment: treatment, alpha: settings.alpha, power: settings.power),
        smallestVariant: smallest,
        achieved: Power.achieved(baseline: mean, treatment: treatment, perGroup: smallest, alpha: settings.alpha),
        target: target)
    }
    let sd = (adjustedVariance ?? control.variance ?? 0).squareRoot()
    return PowerSummary(
      requiredPerVariant: Power.sampleSize(difference: difference, standardDeviation: sd, alpha: settings.alpha, power: settings.power),
      smallestVariant: smallest,
      achieved: Power.achieved(difference: difference, standardDeviation: sd, perGroup: smallest, alpha: settings.alpha),
      target: target)
  }
}
