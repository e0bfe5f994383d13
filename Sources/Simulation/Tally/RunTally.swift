import Tallies

/// Everything one replication of a run records, summed over devices.
public struct RunTally: Hashable, Sendable {
  public var devices = 0
  public var launches = 0
  /// Devices on which some version called stabilize.
  public var stabilizedDevices = 0
  /// Devices that called stabilize, by the day they first did.
  public var stabilizedByDay: [Int]
  /// The remote service's delivery.
  public var remote: RemoteTally
  /// The hash-bucketed service's changes and downloads.
  public var service: ServiceTally
  /// Preconditions met and handshakes, by enrollment rule.
  public var enrollment: EnrollmentTally
  /// Device upgrades between launches, by `from * versions + to`.
  public var upgrades: [Int]
  public var experiments: [ExperimentTally]
  /// By row of `SimulationPlan.sharedKeys`: the clashes on that key.
  public var conflicts: [ConflictTally]

  /// An empty tally shaped for `plan`: every count zero.
  public init(plan: SimulationPlan) {
    self.init(plan: plan, days: plan.scenario.days)
  }

  /// An empty tally shaped for `plan` as if it lasted `days`: its size grows
  /// linearly with the days, which is how `RunEstimate` measures a large
  /// plan's tally without allocating it.
  init(plan: SimulationPlan, days: Int) {
    experiments = zip(plan.experimentNames, plan.variantNames).map { name, variants in
      ExperimentTally(
        variants: variants.count, versions: plan.versions.count, days: days, stepExponents: plan.metricStepExponents,
        ratios: plan.scenario.ratios.count,
        histograms: plan.scenario.metrics.indices.filter { plan.scenario.metrics[$0].countsAmounts }.map {
          AmountHistogram(stepExponent: plan.metricStepExponents[$0], keepsMoments: plan.scenario.metrics[$0].winsorize != nil)
        },
        hasNovelty: plan.scenario.metrics.contains { $0.novelty[name] != nil })
    }
    conflicts = Self.emptyConflicts(plan: plan)
    upgrades = Array(repeating: 0, count: plan.versions.count * plan.versions.count)
    stabilizedByDay = Array(repeating: 0, count: days)
    enrollment = EnrollmentTally(
      rules: plan.scenario.enrollment.count, days: days, segments: plan.scenario.population.segments.count)
    service = ServiceTally(
      experiments: plan.serviceExperiments.count, revisions: plan.scenario.service?.revisions.count ?? 0,
      days: days, flags: plan.scenario.service?.flags.count ?? 0)
    remote = RemoteTally(
      remoteExperiments: plan.remoteExperiments.count, churnRules: plan.scenario.churn.count,
      days: days, revisions: plan.scenario.remote?.revisions.count ?? 0)
  }

  /// Adds another part's counts, exactly, each as `visitCounts` declares it
  /// merges: tallies of the same plan merge to the same totals in any order
  /// and grouping.
  public mutating func merge(_ other: consuming RunTally) {
    mergeCounts(of: other)
  }

  /// A count per shared key of `plan`, each zero.
  static func emptyConflicts(plan: SimulationPlan) -> [ConflictTally] {
    plan.sharedKeys.map { shared in
      ConflictTally(variants: shared.experiments.map { plan.variantNames[$0].count }.reduce(0, +))
    }
  }
}
