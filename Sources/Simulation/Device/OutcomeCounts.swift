import Tallies

/// The batch's outcome counts for the devices each experiment was shown to:
/// `VariantTally.firstExposure`, `uncontaminated`, `covariates` and `ratios`,
/// and `ExperimentTally.dailyCohorts` and `noveltyLooks`. The amounts by size
/// are `HistogramCounts`'.
struct OutcomeCounts: DevicePart, ~Copyable {
  private let metrics: Int
  private let ratios: Int
  /// By `cell * metrics + metric`, where a cell is `tables.variantStart[experiment] + variant`.
  private var firstExposure: ScratchArray<MetricTally>
  private var uncontaminated: ScratchArray<MetricTally>
  /// By the same index, under the scenario's attribution; empty without covariates.
  private var covariates: ScratchArray<CovariateTally>
  /// By `cell * ratios + ratio`, under the scenario's attribution.
  private var ratioProducts: ScratchArray<CrossProducts>
  /// By `(tables.dailyStart[experiment] + day * variants + variant) * metrics + metric`.
  private var dailyCohorts: ScratchArray<MetricTally>
  /// By the same index, the looks of the experiments with novelty; empty without.
  private var noveltyLooks: ScratchArray<MetricTally>

  init(plan: SimulationPlan, tables: borrowing @_addressable SimulationTables) {
    metrics = tables.metricCount
    ratios = tables.ratioNumerators.count
    let cells = tables.variantStart[tables.experimentCount]
    let metricTallies = plan.metricStepExponents.map(MetricTally.init(stepExponent:))
    firstExposure = ScratchArray(repeating: metricTallies, times: cells)
    uncontaminated = ScratchArray(repeating: metricTallies, times: cells)
    covariates = ScratchArray(repeating: CovariateTally(), count: tables.hasCovariates ? cells * metrics : 0)
    ratioProducts = ScratchArray(repeating: CrossProducts(), count: cells * ratios)
    dailyCohorts = ScratchArray(repeating: metricTallies, times: tables.dailyStart[tables.experimentCount])
    noveltyLooks = ScratchArray(
      repeating: metricTallies, times: tables.hasNovelty ? tables.dailyStart[tables.experimentCount] : 0)
  }

  /// Counts the device in every experiment it was shown, under the first
  /// variant it was shown, with the amounts by size in `histograms`.
  @inline(__always)
  mutating func countDevice(
    segment: Int, outcomes: borrowing @_addressable DeviceOutcomes, exposures: borrowing @_addressable Exposures,
    histograms: inout HistogramCounts, tables: borrowing @_addressable SimulationTables
  ) {
    let excludeContaminated = tables.excludeContaminated
    for position in 0..<exposures.shownCount {
      let experiment = exposures.shown[position], pure = exposures.isPure(experiment)
      let first = exposures.firstVariant[experiment]
      let cell = tables.variantStart[experiment] + first
      let cohort = tables.dailyStart[experiment] + exposures.firstDay[experiment] * tables.variantCount(experiment) + first
      let attributed = pure || !excludeContaminated
      for metric in 0..<metrics {
        let expected = outcomes.expectation(
          metric, experiment: experiment, variant: first, shown: true, segment: segment, tables: tables)
        // On the grids every tally of the metric shares, once for the three tallies.
        let outcome = outcomes.outcomes[metric], steps = tables.metricGrids[metric].steps(outcome)
        let expectedSteps = firstExposure[cell * metrics + metric].trueMeanSum.steps(expected)
        let isAmount = !tables.isConversion[metric], converted = !isAmount && outcome == 1
        firstExposure[cell * metrics + metric].add(
          outcomeSteps: steps, expectedSteps: expectedSteps, converted: converted, isAmount: isAmount)
        if pure {
          uncontaminated[cell * metrics + metric].add(
            outcomeSteps: steps, expectedSteps: expectedSteps, converted: converted, isAmount: isAmount)
        }
        guard attributed else { continue }
        // Daily looks test means only: their cohorts need no cubes.
        dailyCohorts[cohort * metrics + metric].add(
          outcomeSteps: steps, expectedSteps: expectedSteps, converted: converted, isAmount: false)
        if tables.hasCovariates, tables.covariateCorrelations[metric] != nil {
          covariates[cell * metrics + metric].add(
            covariate: outcomes.covariates[metric], outcome: outcome, grid: tables.metricGrids[metric])
        }
        histograms.count(steps: steps, metric: metric, cell: cell, tables: tables)
      }
      if ratios > 0, attributed {
        for ratio in 0..<ratios {
          let numerator = tables.ratioNumerators[ratio], denominator = tables.ratioDenominators[ratio]
          ratioProducts[cell * ratios + ratio].add(
            outcomes.outcomes[numerator], on: tables.metricGrids[numerator], times: outcomes.outcomes[denominator],
            on: tables.metricGrids[denominator])
        }
      }
    }
  }

  /// Counts the device in the look at the end of `day` of each experiment
  /// with novelty it was first displayed by then, under the scenario's
  /// attribution, at `outcomes` drawn for that look (`Exposures.advanceLook`).
  mutating func countLook(
    day: Int, segment: Int, outcomes: borrowing @_addressable DeviceOutcomes,
    exposures: borrowing @_addressable Exposures, tables: borrowing @_addressable SimulationTables
  ) {
    for position in 0..<exposures.shownCount {
      let experiment = exposures.shown[position]
      guard tables.noveltyHalfLives[experiment] > 0, exposures.firstDay[experiment] <= day,
        exposures.isPure(experiment) || !tables.excludeContaminated
      else { continue }
      let first = exposures.firstVariant[experiment]
      let look = tables.dailyStart[experiment] + day * tables.variantCount(experiment) + first
      for metric in 0..<metrics {
        let expected = outcomes.expectation(
          metric, experiment: experiment, variant: first, shown: true, segment: segment, tables: tables)
        let tally = look * metrics + metric, isAmount = !tables.isConversion[metric]
        let outcome = outcomes.outcomes[metric]
        noveltyLooks[tally].add(
          outcomeSteps: tables.metricGrids[metric].steps(outcome),
          expectedSteps: noveltyLooks[tally].trueMeanSum.steps(expected), converted: !isAmount && outcome == 1,
          isAmount: false)
      }
    }
  }

  /// Keeps nothing of a device: counts add up across devices.
  mutating func reset(device _: Int, random _: DeviceRandom) {}

  func fold(into tally: inout RunTally, tables: borrowing @_addressable SimulationTables) {
    for experiment in 0..<tables.experimentCount {
      let start = tables.dailyStart[experiment]
      for index in tally.experiments[experiment].dailyCohorts.indices {
        tally.experiments[experiment].dailyCohorts[index].merge(dailyCohorts[start * metrics + index])
      }
      for index in tally.experiments[experiment].noveltyLooks.indices {
        tally.experiments[experiment].noveltyLooks[index].merge(noveltyLooks[start * metrics + index])
      }
      for variant in 0..<tables.variantCount(experiment) {
        let cell = tables.variantStart[experiment] + variant
        for metric in 0..<metrics {
          tally.experiments[experiment].variants[variant].firstExposure[metric].merge(firstExposure[cell * metrics + metric])
          tally.experiments[experiment].variants[variant].uncontaminated[metric]
            .merge(uncontaminated[cell * metrics + metric])
          if tables.hasCovariates {
            tally.experiments[experiment].variants[variant].covariates[metric].merge(covariates[cell * metrics + metric])
          }
        }
        for ratio in 0..<ratios {
          tally.experiments[experiment].variants[variant].ratios[ratio].merge(ratioProducts[cell * ratios + ratio])
        }
      }
    }
  }
}
