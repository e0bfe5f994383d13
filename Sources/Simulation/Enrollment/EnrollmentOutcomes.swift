import Tallies

/// The batch's counts of devices by the variant each enrollment rule enrolled
/// them in, with their outcomes, shown or not: the sample of the diluted
/// estimate (`VariantTally.enrolled`, `enrolledShown`, `enrolledOutcomes`),
/// and the devices on which such an experiment was active but that never
/// enrolled (`ExperimentTally.neverEnrolled`).
struct EnrollmentOutcomes: DevicePart, ~Copyable {
  private let metrics: Int
  /// By `tables.variantStart[experiment] + variant`.
  private var enrolled: ScratchArray<Int>
  private var enrolledShown: ScratchArray<Int>
  /// By `(tables.variantStart[experiment] + variant) * metrics + metric`.
  private var enrolledOutcomes: ScratchArray<MetricTally>
  /// By `experiment * metrics + metric`.
  private var neverEnrolled: ScratchArray<MetricTally>
  /// By experiment: the never-enrolled devices, with or without metrics.
  private var neverEnrolledDevices: ScratchArray<Int>

  init(plan: SimulationPlan, tables: borrowing @_addressable SimulationTables) {
    metrics = tables.metricCount
    let cells = tables.variantStart[tables.experimentCount]
    let metricTallies = plan.metricStepExponents.map(MetricTally.init(stepExponent:))
    enrolled = ScratchArray(repeating: 0, count: cells)
    enrolledShown = ScratchArray(repeating: 0, count: cells)
    enrolledOutcomes = ScratchArray(repeating: metricTallies, times: cells)
    neverEnrolled = ScratchArray(repeating: metricTallies, times: tables.experimentCount)
    neverEnrolledDevices = ScratchArray(repeating: 0, count: tables.experimentCount)
  }

  /// Counts a device whose launches are over under each rule of `gate`. The
  /// truth is its expectation had it been shown the variant it was enrolled in.
  @inline(__always)
  mutating func countDevice(
    gate: borrowing @_addressable EnrollmentGate, segment: Int, outcomes: borrowing @_addressable DeviceOutcomes,
    exposures: borrowing @_addressable Exposures,
    tables: borrowing @_addressable SimulationTables
  ) {
    for (rule, experiment) in gate.experiments.enumerated() {
      let variant = gate.enrolledVariant[rule]
      guard variant >= 0 else {
        if gate.wasActive[rule] { countNeverEnrolled(experiment, segment: segment, outcomes: outcomes, tables: tables) }
        continue
      }
      let cell = tables.variantStart[experiment] + variant, shown = exposures.displayedMask[experiment] != 0
      enrolled[cell] += 1
      if shown { enrolledShown[cell] += 1 }
      for metric in 0..<metrics {
        let expected = outcomes.expectation(
          metric, experiment: experiment, variant: variant, shown: shown, segment: segment, tables: tables)
        enrolledOutcomes[cell * metrics + metric]
          .add(outcomes.outcomes[metric], expected: expected, isConversion: tables.isConversion[metric])
      }
    }
  }

  /// A device on which the experiment was active but that never enrolled:
  /// never shown it either, so its outcome carries no lift of it.
  private mutating func countNeverEnrolled(
    _ experiment: Int, segment: Int, outcomes: borrowing @_addressable DeviceOutcomes,
    tables: borrowing @_addressable SimulationTables
  ) {
    neverEnrolledDevices[experiment] += 1
    for metric in 0..<metrics {
      let expected = tables.metricKinds[metric].expectation(
        baseline: tables.baseline(metric: metric, segment: segment), factor: outcomes.factor(metric))
      neverEnrolled[experiment * metrics + metric]
        .add(outcomes.outcomes[metric], expected: expected, isConversion: tables.isConversion[metric])
    }
  }

  /// Keeps nothing of a device: counts add up across devices.
  mutating func reset(device _: Int, random _: DeviceRandom) {}

  func fold(into tally: inout RunTally, tables: borrowing @_addressable SimulationTables) {
    for experiment in 0..<tables.experimentCount {
      tally.experiments[experiment].neverEnrolledDevices += neverEnrolledDevices[experiment]
      for metric in 0..<metrics {
        tally.experiments[experiment].neverEnrolled[metric].merge(neverEnrolled[experiment * metrics + metric])
      }
      for variant in 0..<tables.variantCount(experiment) {
        let cell = tables.variantStart[experiment] + variant
        tally.experiments[experiment].variants[variant].enrolled += enrolled[cell]
        tally.experiments[experiment].variants[variant].enrolledShown += enrolledShown[cell]
        for metric in 0..<metrics {
          tally.experiments[experiment].variants[variant].enrolledOutcomes[metric]
            .merge(enrolledOutcomes[cell * metrics + metric])
        }
      }
    }
  }
}
