/// A device's outcome of each metric, drawn once its launches are over under
/// what it was shown, with its covariate where the metric has one, and the
/// lifts that shaped it, which the counts of its expectations need.
struct DeviceOutcomes: ~Copyable {
  /// Per metric.
  private(set) var outcomes: ScratchArray<Double>
  /// Per metric with a covariate, the device's covariate.
  private(set) var covariates: ScratchArray<Double>
  /// Per metric and experiment, the mixed lift of the displayed variants.
  private var mixedLifts: ScratchArray<Double>
  /// Per metric, the product of every displayed experiment's mixed lift.
  private var factors: ScratchArray<Double>
  /// Per experiment with novelty, the share of its initial lifts its display
  /// days carry (`Exposures.noveltyShare`).
  private var noveltyShares: ScratchArray<Double>
  private let experiments: Int

  init(tables: borrowing @_addressable SimulationTables) {
    experiments = tables.experimentCount
    outcomes = ScratchArray(repeating: 0, count: tables.metricCount)
    covariates = ScratchArray(repeating: 0, count: tables.metricCount)
    mixedLifts = ScratchArray(repeating: 0, count: tables.metricCount * tables.experimentCount)
    factors = ScratchArray(repeating: 1, count: tables.metricCount)
    noveltyShares = ScratchArray(repeating: 0, count: tables.hasNovelty ? tables.experimentCount : 0)
  }

  /// Draws each metric; `exposures` lists the experiments shown in the plan's order.
  @inline(__always)
  mutating func draw(
    _ random: DeviceRandom, segment: Int, exposures: borrowing @_addressable Exposures,
    tables: borrowing @_addressable SimulationTables
  ) {
    var stream = random.stream(.outcomes)
    var covariateDraws = random.stream(.covariates, ifUsed: tables.hasCovariates)
    if tables.hasNovelty {
      for position in 0..<exposures.shownCount {
        let experiment = exposures.shown[position]
        noveltyShares[experiment] = exposures.noveltyShare(experiment, tables: tables)
      }
    }
    for metric in 0..<tables.metricCount {
      var factor = 1.0
      for position in 0..<exposures.shownCount {
        let experiment = exposures.shown[position]
        let lift = tables.hasNovelty
          ? exposures.movingLift(experiment, metric: metric, segment: segment, tables: tables)
          : exposures.mixedLift(experiment, metric: metric, segment: segment, tables: tables)
        mixedLifts[metric * experiments + experiment] = lift
        factor *= 1 + lift
      }
      factors[metric] = factor
      let baseline = tables.baseline(metric: metric, segment: segment), grid = tables.metricGrids[metric]
      if let correlation = tables.covariateCorrelations[metric] {
        let (outcome, standardBaseline) = tables.metricKinds[metric].drawWithStandardBaseline(
          baseline: baseline, factor: factor, grid: grid, from: &stream, spare: &covariateDraws)
        outcomes[metric] = outcome
        covariates[metric] =
          correlation * standardBaseline + (1 - correlation * correlation).squareRoot() * covariateDraws.nextNormal()
      } else {
        outcomes[metric] = tables.metricKinds[metric].draw(baseline: baseline, factor: factor, grid: grid, from: &stream)
      }
    }
  }

  /// The product of every displayed experiment's mixed lift on `metric`.
  @inline(__always)
  func factor(_ metric: Int) -> Double { factors[metric] }

  /// What the device would expect of `metric` had it been shown `variant`
  /// alone in `experiment` (`shown`: whether it was shown the experiment at all),
  /// and the other experiments as they were. Without a lift of its own (most
  /// experiments lift no metric) the others' factor is the whole product, as
  /// dividing it by 1 would give, without the division. With novelty, the
  /// variant alone on the same display days carries as much of its initial
  /// lift as the device's own variants did; a device not shown it, none.
  @inline(__always)
  func expectation(
    _ metric: Int, experiment: Int, variant: Int, shown: Bool, segment: Int, tables: borrowing @_addressable SimulationTables
  ) -> Double {
    let ownLift = shown ? mixedLifts[metric * experiments + experiment] : 0
    let others = ownLift == 0 ? factors[metric] : factors[metric] / (1 + ownLift)
    let lift = tables.hasNovelty && shown
      ? movingLift(metric, experiment: experiment, variant: variant, segment: segment, tables: tables)
      : tables.lift(metric: metric, experiment: experiment, variant: variant, segment: segment)
    return tables.metricKinds[metric].expectation(
      baseline: tables.baseline(metric: metric, segment: segment), factor: others * (1 + lift))
  }

  /// The lift `variant` alone would give on the device's display days of the
  /// experiment: its settled lift plus the share of its initial one they carry.
  private func movingLift(
    _ metric: Int, experiment: Int, variant: Int, segment: Int, tables: borrowing @_addressable SimulationTables
  ) -> Double {
    let settled = tables.lift(metric: metric, experiment: experiment, variant: variant, segment: segment)
    guard tables.noveltyHalfLives[experiment] > 0 else { return settled }
    let initial = tables.initialLift(metric: metric, experiment: experiment, variant: variant, segment: segment)
    return settled + (initial - settled) * noveltyShares[experiment]
  }
}
