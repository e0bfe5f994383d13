import Tallies

/// The batch's amounts by size for metrics with quantiles or winsorization
/// (`VariantTally.histograms`), under the scenario's attribution, with each
/// bucket's moments for winsorized metrics.
struct HistogramCounts: DevicePart, ~Copyable {
  private let histograms: Int
  private let winsorized: Int
  /// By `(cell * histograms + tables.histogramSlots[metric]) * AmountHistogram.bucketCount + bucket`,
  /// where a cell is `tables.variantStart[experiment] + variant`.
  private var counts: ScratchArray<Int>
  /// By `(cell * winsorized + tables.winsorizedSlots[metric]) * AmountHistogram.bucketCount + bucket`.
  private var moments: ScratchArray<Moments>

  init(plan: SimulationPlan, tables: borrowing @_addressable SimulationTables) {
    histograms = tables.histogramCount
    winsorized = tables.winsorizedCount
    let cells = tables.variantStart[tables.experimentCount]
    counts = ScratchArray(repeating: 0, count: cells * histograms * AmountHistogram.bucketCount)
    let cellMoments = plan.scenario.metrics.indices.filter { plan.scenario.metrics[$0].winsorize != nil }.flatMap { metric in
      Array(repeating: Moments(stepExponent: plan.metricStepExponents[metric]), count: AmountHistogram.bucketCount)
    }
    moments = ScratchArray(repeating: cellMoments, times: cells)
  }

  /// Counts an outcome of `metric`, already in steps of its grid, in a variant's cell.
  @inline(__always)
  mutating func count(steps: Int64, metric: Int, cell: Int, tables: borrowing @_addressable SimulationTables) {
    guard histograms > 0, tables.histogramSlots[metric] >= 0 else { return }
    let bucket = AmountHistogram.bucket(steps: steps)
    counts[(cell * histograms + tables.histogramSlots[metric]) * AmountHistogram.bucketCount + bucket] += 1
    if tables.winsorizedSlots[metric] >= 0 {
      moments[(cell * winsorized + tables.winsorizedSlots[metric]) * AmountHistogram.bucketCount + bucket].add(steps: steps)
    }
  }

  /// Keeps nothing of a device: counts add up across devices.
  mutating func reset(device _: Int, random _: DeviceRandom) {}

  func fold(into tally: inout RunTally, tables: borrowing @_addressable SimulationTables) {
    for experiment in 0..<tables.experimentCount {
      for variant in 0..<tables.variantCount(experiment) {
        let cell = tables.variantStart[experiment] + variant
        for slot in 0..<histograms {
          let start = (cell * histograms + slot) * AmountHistogram.bucketCount
          for bucket in 0..<AmountHistogram.bucketCount {
            tally.experiments[experiment].variants[variant].histograms[slot].counts[bucket] += counts[start + bucket]
          }
        }
        for (slot, histogram) in tables.winsorizedHistograms.enumerated() {
          let start = (cell * winsorized + slot) * AmountHistogram.bucketCount
          for bucket in 0..<AmountHistogram.bucketCount {
            tally.experiments[experiment].variants[variant].histograms[histogram].moments[bucket]
              .merge(moments[start + bucket])
          }
        }
      }
    }
  }
}
