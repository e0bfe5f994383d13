import Enrollment
import Lab
import Results
import ScenarioFormat
import Tallies

extension ResultsDocument {
  /// The document for one replication's tally, described with the
  /// scenario's names.
  ///
  /// - Parameter replications: how many replications the run made.
  public init(plan: SimulationPlan, tally: RunTally, replications: Int = 1) {
    let scenario = plan.scenario
    self.init(
      scenario: scenario.name, seed: scenario.seed, devices: scenario.devices, days: scenario.days,
      replications: replications, launches: tally.launches, stabilizedDevices: tally.stabilizedDevices,
      experiments: {
        let changes = DashboardChangeLog(plan: plan)
        return plan.experimentNames.indices.map { ExperimentResult(plan: plan, experiment: $0, tally: tally, changes: changes) }
      }(),
      conflicts: Self.conflicts(plan: plan, tally: tally), calibration: nil,
      delivery: DeliveryResult(plan: plan, tally: tally))
  }

  /// Every key two experiments share in some version, counting every key a
  /// remote experiment ever declares, with the clashes the manager met on it.
  private static func conflicts(plan: SimulationPlan, tally: RunTally) -> [ConflictResult] {
    zip(plan.sharedKeys, tally.conflicts).map { shared, conflict in
      var served: [ConflictResult.Served] = []
      var offset = 0
      for experiment in shared.experiments {
        let variants = plan.variantNames[experiment]
        for (index, variant) in variants.enumerated() where conflict.served[offset + index] > 0 {
          served.append(ConflictResult.Served(
            experiment: plan.experimentNames[experiment], variant: variant, devices: conflict.served[offset + index]))
        }
        offset += variants.count
      }
      return ConflictResult(
        key: shared.key, experiments: shared.experiments.map { plan.experimentNames[$0] }.sorted(),
        devices: conflict.devices, firstDay: conflict.firstDay, lastDay: conflict.lastDay,
        served: served.sorted { ($0.experiment, $0.variant) < ($1.experiment, $1.variant) })
    }
  }
}

extension ExperimentResult {
  init(plan: SimulationPlan, experiment: Int, tally: RunTally, changes changeLog: DashboardChangeLog) {
    let scenario = plan.scenario
    let name = plan.experimentNames[experiment]
    let definingVersions = scenario.versions.filter { $0.experiments.contains { $0.name == name } }
    let definitions = definingVersions.map { version in version.experiments.first { $0.name == name }! }
    let serviceRevisions = definitions.isEmpty ? scenario.service?.revisions ?? [] : []
    /// When the plan deleted a variant its last definition no longer has: the
    /// version that dropped it from a local experiment ("2.0"), or the day a
    /// service's dashboard removed the variation ("day 28").
    func retirement(of variant: String) -> String? {
      if let last = definitions.last, last.variantIndex(named: variant) == nil,
        let holding = definitions.lastIndex(where: { $0.variantIndex(named: variant) != nil })
      {
        return definingVersions[holding + 1].version
      }
      let held = serviceRevisions.map { revision in
        revision.experiments.first { $0.name == name }.map { experiment in
          experiment.variations.contains { $0.name == variant }
        }
      }
      guard let last = held.last, last == false, let holding = held.lastIndex(of: true) else { return nil }
      return "day \(serviceRevisions[holding + 1].day)"
    }
    // The last version that still compares variants: a version that keeps only
    // one (a concluded experiment) has nothing to compare its baseline with.
    // A remote experiment has no baseline on the service: its first variant serves as one.
    let baseline = (definitions.last { $0.variants.count > 1 } ?? definitions.last)?.baseline ?? plan.variantNames[experiment][0]
    let experimentTally = tally.experiments[experiment]
    let attribution = scenario.analysis.attribution
    let variantNames = plan.variantNames[experiment]
    let versions = plan.versions.count
    /// Daily cohorts carry no covariates: the daily looks are not adjusted.
    func summaries(_ tallies: [MetricTally], covariates: [CovariateTally]? = nil, variant: String) -> [MetricSummary] {
      scenario.metrics.indices.map { index in
        let metric = scenario.metrics[index], tally = tallies[index]
        var summary = MetricSummary(
          metric: metric, tally: tally,
          trueLift: metric.trueLift(of: variant, over: baseline, in: name, population: scenario.population))
        if metric.covariateCorrelation != nil, let covariate = covariates?[index] {
          summary.covariate = CovariateSummary(
            mean: covariate.covariates.mean, variance: covariate.covariates.sampleVariance,
            covariance: covariate.covariance(with: tally.outcomes))
        }
        return summary
      }
    }
    func ratios(_ tallies: [MetricTally], products: [CrossProducts], variant: String) -> [RatioSummary] {
      scenario.ratios.enumerated().map { index, ratio in
        let numerator = tallies[scenario.metrics.firstIndex { $0.name == ratio.numerator }!].outcomes
        let denominator = tallies[scenario.metrics.firstIndex { $0.name == ratio.denominator }!].outcomes
        return RatioSummary(
          name: ratio.name, n: numerator.count, numeratorMean: numerator.mean, numeratorVariance: numerator.sampleVariance,
          denominatorMean: denominator.mean, denominatorVariance: denominator.sampleVariance,
          covariance: products[index].covariance(x: denominator, y: numerator),
          trueLift: ratio.trueLift(
            of: variant, over: baseline, in: name, metrics: scenario.metrics, population: scenario.population))
      }
    }
    let amountMetrics = scenario.metrics.filter(\.countsAmounts)
    let caps = amountMetrics.indices.map { slot in
      amountMetrics[slot].winsorize.flatMap { percentile in
        AmountHistogram.cap(percentile: percentile, of: experimentTally.variants.map { $0.histograms[slot] })
      }
    }
    let variants = variantNames.enumerated().map { index, variantName in
      let variantTally = experimentTally.variants[index]
      let lastDefinition = definitions.last { $0.variantIndex(named: variantName) != nil }
      let attributed = attribution == .firstExposure ? variantTally.firstExposure : variantTally.uncontaminated
      var variant = VariantResult(
        name: variantName, weight: lastDefinition.map { $0.variants[$0.variantIndex(named: variantName)!].weight },
        exposed: variantTally.exposed, contaminated: variantTally.contaminated, firstExposed: variantTally.firstExposed,
        expectedFirstExposed: variantTally.expectedFirstExposed.value,
        metrics: summaries(attributed, covariates: variantTally.covariates, variant: variantName))
      variant.ratios = ratios(attributed, products: variantTally.ratios, variant: variantName)
      variant.retiredIn = retirement(of: variantName)
      variant.distributions = zip(amountMetrics, variantTally.histograms).filter { !$0.0.quantiles.isEmpty }.map {
        metric, histogram in
        let (values, counts, lowerEdges, upperEdges) = histogram.distribution
        return AmountDistribution(
          metric: metric.name, quantiles: metric.quantiles, values: values, counts: counts, lowerEdges: lowerEdges,
          upperEdges: upperEdges,
          trueLift: metric.quantileLift(of: variantName, over: baseline, in: name, population: scenario.population))
      }
      variant.winsorized = amountMetrics.indices.compactMap { slot in
        guard let percentile = amountMetrics[slot].winsorize else { return nil }
        let metric = amountMetrics[slot], histogram = variantTally.histograms[slot]
        var summary = variant.metrics.first { $0.name == metric.name }!
        summary.name = Metric.winsorizedName(metric: metric.name, percentile: percentile)
        summary.covariate = nil
        // The skewness is the uncapped amounts'; the capped ones' is not kept.
        summary.skewness = nil
        guard let cap = caps[slot] else {
          return WinsorizedSummary(metric: metric.name, percentile: percentile, cap: nil, capped: 0, summary: summary)
        }
        let (moments, capped) = histogram.winsorized(atSteps: cap)
        (summary.mean, summary.variance) = (moments.mean, moments.sampleVariance)
        return WinsorizedSummary(
          metric: metric.name, percentile: percentile, cap: Double(cap) * moments.step, capped: capped, summary: summary)
      }
      return variant
    }
    var dailyMetrics: [[[MetricSummary]]] = []
    let metricCount = scenario.metrics.count
    var running = Array(
      repeating: plan.metricStepExponents.map(MetricTally.init(stepExponent:)), count: variantNames.count)
    // A look at a moving lift is counted as it stood (`noveltyLooks`), every
    // other as the sum of the cohorts first displayed by then.
    let looksAsCounted = !experimentTally.noveltyLooks.isEmpty
    for day in 0..<scenario.days {
      for variant in variantNames.indices {
        for metric in 0..<metricCount {
          let index = (day * variantNames.count + variant) * metricCount + metric
          if looksAsCounted {
            running[variant][metric] = experimentTally.noveltyLooks[index]
          } else {
            running[variant][metric].merge(experimentTally.dailyCohorts[index])
          }
        }
      }
      // The daily cohorts keep no cubes (the looks test means only): no skewness.
      dailyMetrics.append(variantNames.indices.map { variant in
        summaries(running[variant], variant: variantNames[variant]).map { summary in
          var summary = summary
          summary.skewness = nil
          return summary
        }
      })
    }
    self.init(
      name: name, source: plan.source(of: experiment), baseline: baseline, variants: variants,
      mixedDevices: experimentTally.mixedDevices,
      transitions: (0..<(versions * versions)).compactMap { index in
        let devices = tally.upgrades[index]
        guard devices > 0 else { return nil }
        let counts = experimentTally.transitions[index]
        return TransitionResult(
          fromVersion: scenario.versions[index / versions].version,
          toVersion: scenario.versions[index % versions].version, devices: devices, kept: counts.kept,
          reassigned: counts.reassigned, deactivated: counts.deactivated, activated: counts.activated,
          returned: counts.returned, returnedOnAnotherVariant: counts.returnedOnAnotherVariant)
      },
      dailyNewExposures: variantNames.indices.map { variant in
        (0..<scenario.days).map { experimentTally.dailyNewExposures[$0 * variantNames.count + variant] }
      },
      dailyMetrics: dailyMetrics, srm: nil, analysis: [])
    changes = Self.dashboardChanges(plan: plan, experiment: experiment, tally: tally, log: changeLog)
    enrollment = Self.enrollment(
      plan: plan, experiment: experiment, tally: tally, variants: variants, baselineName: baseline)
  }

  /// The enrollment rule's counts, when the experiment has one: the enrolled
  /// devices as a sample of their own, shown or not.
  private static func enrollment(
    plan: SimulationPlan, experiment: Int, tally: RunTally, variants: [VariantResult], baselineName: String
  ) -> EnrollmentRuleResult? {
    let name = plan.experimentNames[experiment]
    guard let rule = plan.scenario.enrollment[name] else { return nil }
    let index = plan.experimentNames.indices.filter { plan.scenario.enrollment[plan.experimentNames[$0]] != nil }
      .firstIndex(of: experiment)!
    let scenario = plan.scenario, experimentTally = tally.experiments[experiment]
    let outcomes = DevToDevHandshake.Outcome.allCases
    func summaries(_ tallies: [MetricTally], of variant: VariantResult) -> [MetricSummary] {
      zip(scenario.metrics, tallies).map { metric, tally in
        MetricSummary(metric: metric, tally: tally, trueLift: variant.metrics.first { $0.name == metric.name }?.trueLift)
      }
    }
    let neverCount = experimentTally.neverEnrolledDevices
    var result = EnrollmentRuleResult(
      policy: rule.policy.rawValue,
      variants: zip(variants, experimentTally.variants).map { variant, counts in
        VariantResult(
          name: variant.name, weight: variant.weight, exposed: counts.enrolled, contaminated: 0, firstExposed: counts.enrolled,
          expectedFirstExposed: nil, metrics: summaries(counts.enrolledOutcomes, of: variant))
      },
      shown: experimentTally.variants.map(\.enrolledShown),
      conditionMet: rule.precondition == nil ? [] : tally.enrollment.conditionMet[index],
      handshakes: rule.handshake == nil ? [] : outcomes.enumerated().map { position, outcome in
        (outcome.rawValue, (0..<scenario.days).map { tally.enrollment.handshakes[index][$0 * outcomes.count + position] })
      })
    if rule.lapseChance > 0 { result.conditionLapsed = tally.enrollment.conditionLapsed[index] }
    if rule.handshake?.sharedDevices != nil {
      let switches = tally.enrollment.userSwitches[index]
      result.restoredUsers = (0..<scenario.days).map { switches[$0 * 2] }
      result.newUsers = (0..<scenario.days).map { switches[$0 * 2 + 1] }
    }
    result.segments = scenario.population.segments.enumerated().map { position, segment in
      (segment.name, tally.enrollment.activeBySegment[index][position], tally.enrollment.enrolledBySegment[index][position])
    }
    guard neverCount > 0, let baseline = variants.firstIndex(where: { $0.name == baselineName })
    else { return result }
    result.neverEnrolled = VariantResult(
      name: "never enrolled", weight: nil, exposed: neverCount, contaminated: 0, firstExposed: neverCount,
      expectedFirstExposed: nil, metrics: summaries(experimentTally.neverEnrolled, of: variants[baseline]))
    result.neverEnrolledAsBaseline = zip(variants, experimentTally.variants).enumerated().map { position, pair in
      let (variant, counts) = pair
      var tallies = counts.enrolledOutcomes
      if position == baseline {
        for metric in tallies.indices { tallies[metric].merge(experimentTally.neverEnrolled[metric]) }
      }
      let count = counts.enrolled + (position == baseline ? neverCount : 0)
      return VariantResult(
        name: variant.name, weight: variant.weight, exposed: count, contaminated: 0, firstExposed: count,
        expectedFirstExposed: nil, metrics: summaries(tallies, of: variant))
    }
    return result
  }

  /// The changes on the dashboard of the service that runs the experiment
  /// (the remote one or the hash-bucketed one) that concern it, each with
  /// what it did, in date order; none for a local experiment.
  private static func dashboardChanges(
    plan: SimulationPlan, experiment: Int, tally: RunTally, log: DashboardChangeLog
  ) -> [ServiceChangeResult] {
    let name = plan.experimentNames[experiment]
    if plan.isRemote(experiment) {
      return changeResults(
        revisionDays: log.remoteDays, changes: log.remote[name] ?? [],
        counts: tally.remote.changes[experiment - plan.remoteExperiments.lowerBound], carryValues: true)
    }
    if plan.serviceExperiments.contains(experiment) {
      return changeResults(
        revisionDays: log.serviceDays, changes: log.service[name] ?? [],
        counts: tally.service.changes[experiment - plan.serviceExperiments.lowerBound], carryValues: false)
    }
    return []
  }

  /// One result per revision whose changes concern the experiment, from its
  /// changes; with what they did to values where the variants carry them (`carryValues`).
  private static func changeResults(
    revisionDays: [Int], changes: [(day: Int, description: String)], counts: [ChangeCounts], carryValues: Bool
  ) -> [ServiceChangeResult] {
    let byDay = Dictionary(grouping: changes, by: \.day)
    return revisionDays.enumerated().compactMap { index, day in
      guard let today = byDay[day] else { return nil }
      let count = counts[index]
      return ServiceChangeResult(
        day: day, change: today.map(\.description).joined(separator: "; "), devices: count.devices,
        kept: count.kept, moved: count.moved, left: count.left, entered: count.entered,
        values: carryValues ? .init(took: count.tookValues, overridden: count.overridden, keptOld: count.keptOldValues) : nil)
    }
  }
}

/// The dated dashboard changes of a plan's remote and service experiments,
/// gathered once per document rather than once per experiment: a plan may
/// start thousands of experiments.
struct DashboardChangeLog {
  /// The day of each revision of the remote configuration and of the service's.
  let remoteDays: [Int]
  let serviceDays: [Int]
  /// By experiment name, its changes in order.
  let remote: [String: [(day: Int, description: String)]]
  let service: [String: [(day: Int, description: String)]]

  init(plan: SimulationPlan) {
    remoteDays = plan.scenario.remote?.revisions.map(\.day) ?? []
    serviceDays = plan.scenario.service?.revisions.map(\.day) ?? []
    var remote: [String: [(day: Int, description: String)]] = [:]
    for change in plan.scenario.remote?.changes ?? [] {
      remote[change.experiment, default: []].append((change.day, change.description))
    }
    var service: [String: [(day: Int, description: String)]] = [:]
    for change in plan.scenario.service?.changes ?? [] {
      service[change.experiment, default: []].append((change.day, change.description))
    }
    self.remote = remote
    self.service = service
  }
}

extension MetricSummary {
  init(metric: Metric, tally: MetricTally, trueLift: Double?) {
    let isConversion = metric.kind == .conversion
    self.init(
      name: metric.name, isConversion: isConversion, n: tally.outcomes.count,
      conversions: isConversion ? tally.conversions : nil, mean: tally.outcomes.mean,
      variance: tally.outcomes.sampleVariance, trueMean: tally.trueMean, trueLift: trueLift)
    skewness = isConversion ? nil : tally.skewness
  }
}

extension DeliveryResult {
  init(plan: SimulationPlan, tally: RunTally) {
    var stabilized = 0
    let remote = tally.remote
    self.init(
      stabilized: tally.stabilizedByDay.map {
        stabilized += $0
        return stabilized
      },
      overridden: remote.overridden,
      // A failed download of the remote configuration, or of the service's datafile or payload.
      failedFetches: zip(remote.failedFetches, tally.service.failedFetches).map(+), defaultFallbacks: remote.defaultFallbacks,
      enrollment: remote.enrollment.enumerated().map { index, enrollment in
        EnrollmentResult(
          experiment: plan.experimentNames[plan.localExperimentCount + index], eligible: enrollment.eligible,
          enrolled: enrollment.enrolled, daysToEnroll: enrollment.daysToEnroll)
      },
      churn: zip(plan.scenario.churn, remote.churn).map { rule, churn in
        ChurnResult(
          experiment: rule.experiment, variant: rule.variant, exposed: churn.exposed, lost: churn.lost, stuck: churn.stuck,
          rescued: churn.rescued)
      })
    if (plan.scenario.service?.accessBeforeDownload ?? 0) > 0 { staleActivations = tally.service.staleActivations }
    flags = (plan.scenario.service?.flags ?? []).enumerated().map { index, flag in
      FlagResult(name: flag.name, on: tally.service.flagOn[index], unknown: tally.service.flagUnknown[index])
    }
    if let scenarioRemote = plan.scenario.remote, scenarioRemote.values == .koma {
      var kinds = ["experimentalGroup", "keyNotFound", "incorrectValue"]
      if scenarioRemote.customValues != nil || scenarioRemote.debugValues != nil { kinds += ["customValue", "debugValue"] }
      tracking = kinds.enumerated().map { kind, name in
        DailySeries(name: name, days: (0..<plan.scenario.days).map { remote.tracking[$0 * 5 + kind] })
      }
    }
  }
}
