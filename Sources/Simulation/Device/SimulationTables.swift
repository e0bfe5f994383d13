import Lab
import ScenarioFormat
import Tallies

/// The plan as flat arrays of plain numbers, one set per simulator: what the
/// device loop reads on every launch, laid out so that reading it never
/// touches a reference count shared with another thread, and the tables it
/// reads most in scratch memory (`ScratchArray`) the tables own. It cannot be
/// copied, as its arrays cannot: the simulator owns it and lends it to its
/// parts (`DeviceSimulator` says how). Every field is a `let`.
struct SimulationTables: ~Copyable {
  let experimentCount: Int
  let versionCount: Int
  let metricCount: Int
  let days: Int
  let maximumSlots: Int

  // Versions.
  let releaseDays: ScratchArray<Int>
  let meanDelays: ScratchArray<Double>
  let neverUpgradeShares: ScratchArray<Double>
  /// The launch on which each version calls stabilize, 0 for never.
  let stabilizeOnLaunch: ScratchArray<Int>
  /// Each version's slots are `slotStart[v] ..< slotStart[v + 1]`.
  let slotStart: ScratchArray<Int>
  /// Each version's undefined experiments are `undefined[undefinedStart[v] ..< undefinedStart[v + 1]]`.
  let undefinedStart: ScratchArray<Int>
  let undefined: ScratchArray<Int>
  /// By `from * versionCount + to`: whether an upgrade from `from` to `to`
  /// leaves every local decision as it was. Lab says when a recorded
  /// decision persists (`LocalDecision.persists`), and a device that launched
  /// `from` has a record of each of its experiments; so where `to` defines
  /// the same experiments, each with decisions that persist, the launch would
  /// rewrite the same records. The tables carry them only where, besides, each
  /// experiment keeps its variants in the same order (weights and token
  /// ranges may differ), so that the variant numbers the device keeps stay
  /// valid.
  let carriesDecisions: ScratchArray<Bool>
  /// Per version, which experiments share keys in the manager's merge order.
  let clashes: ClashTables
  let remote: RemoteTables
  let service: ServiceTables

  // Slots: one experiment in one version.
  let slotExperiment: ScratchArray<Int>
  let slotRange: ScratchArray<TokenRange>
  let slotCumulativeStart: ScratchArray<Int>
  let cumulativeWeights: ScratchArray<UInt64>
  /// Per slot, whether its variants' weights are all equal, as most are:
  /// `select` then needs no search.
  let slotEqualWeights: ScratchArray<Bool>
  let slotLocalStart: ScratchArray<Int>
  let localOfGlobal: ScratchArray<Int>
  let slotGlobalStart: ScratchArray<Int>
  let globalOfLocal: ScratchArray<Int>
  /// Each experiment's slots, in version order.
  let experimentSlots: [[Int]]
  /// Each slot's variants as a mask of global variant numbers.
  let slotVariantMask: ScratchArray<UInt64>
  /// Each slot's weight of each global variant (0 when the slot lacks it), by
  /// `slot * variantStride + variant`.
  let slotWeights: [UInt64]
  /// The most variants any experiment has.
  let variantStride: Int

  // Experiments.
  /// Each experiment's variants are `variantStart[e] ..< variantStart[e + 1]` in per-variant tables.
  let variantStart: ScratchArray<Int>
  /// Each experiment's daily counts start at `dailyStart[e]`, `days × variants` of them.
  let dailyStart: ScratchArray<Int>
  let displayProbabilities: ScratchArray<Double>
  /// Whether every experiment is displayed with certainty or never: a
  /// display then draws nothing.
  let displaysWithoutDraws: Bool
  /// Each experiment's `DisplayMoment`, as its position in `DisplayMoment.allCases`.
  let displayMoments: ScratchArray<UInt8>
  /// Whether some experiment is displayed once rather than at every launch.
  let hasDisplayMoments: Bool

  // Population and metrics.
  let installs: InstallTables
  let stores: StoreTables
  let activity: ActivityTables
  let cumulativeShares: [Double]
  let launchProbabilities: ScratchArray<Double>
  let segmentNames: [String]
  let segmentCount: Int
  let metricKinds: [Metric.Kind]
  /// Whether each metric is a conversion, asked per device and metric: held as a flag, as comparing
  /// kinds is a call into ScenarioFormat, which the debug build leaves unoptimised.
  let isConversion: ScratchArray<Bool>
  /// Each metric's grid, on which its amounts are drawn.
  let metricGrids: ScratchArray<Moments>
  /// Whether daily cohorts count only devices shown a single variant.
  let excludeContaminated: Bool
  /// Per metric, its covariate's correlation, `nil` for a metric without one.
  let covariateCorrelations: [Double?]
  /// Whether any metric has a covariate: otherwise the loop draws none.
  let hasCovariates: Bool
  /// Per ratio of the scenario, the indices of its numerator and denominator metrics.
  let ratioNumerators: [Int]
  let ratioDenominators: [Int]
  /// How many metrics count their amounts (`Metric.countsAmounts`), and per
  /// metric its histogram's index among them (`VariantTally.histograms`), or −1.
  let histogramCount: Int
  let histogramSlots: [Int]
  /// How many metrics are winsorized, per metric its index among them or −1,
  /// and per winsorized metric its histogram's index.
  let winsorizedCount: Int
  let winsorizedSlots: [Int]
  let winsorizedHistograms: [Int]
  /// By `metric * segments + segment`.
  let baselines: ScratchArray<Double>
  /// By `((metric * variants(all experiments)) + variantStart[e] + variant) * segments + segment`.
  let lifts: ScratchArray<Double>
  /// By `metric * experimentCount + experiment`: whether any variant of the
  /// experiment lifts the metric in any segment, settled or initially. Most
  /// experiments of a plan lift none of its metrics, and their mixed lift is
  /// 0 without a division.
  let liftsMetric: ScratchArray<Bool>
  /// As `lifts`: each variant's lift on the day of a device's first exposure
  /// (`Novelty`), the settled one where the experiment's effect does not move.
  let initialLifts: ScratchArray<Double>
  /// Per experiment, the half-life in days of its novelty; 0 for none.
  let noveltyHalfLives: ScratchArray<Double>
  /// Whether any experiment's effect moves: otherwise the loop keeps no
  /// novelty weights.
  let hasNovelty: Bool

  init(_ plan: SimulationPlan) {
    let scenario = plan.scenario
    experimentCount = plan.experimentNames.count
    versionCount = plan.versions.count
    metricCount = scenario.metrics.count
    days = scenario.days
    maximumSlots = plan.versions.map(\.slots.count).max() ?? 0
    releaseDays = ScratchArray(scenario.versions.map(\.releaseDay))
    meanDelays = ScratchArray(scenario.versions.map(\.adoption.meanDelayDays))
    neverUpgradeShares = ScratchArray(scenario.versions.map(\.adoption.neverUpgradeShare))
    stabilizeOnLaunch = ScratchArray(scenario.versions.map { $0.stabilizeOnLaunch ?? 0 })
    remote = RemoteTables(plan: plan)
    carriesDecisions = ScratchArray(plan.versions.flatMap { from in
      plan.versions.map { to in
        from.slots.map(\.experimentID) == to.slots.map(\.experimentID)
          && zip(from.slots, to.slots).allSatisfy { previous, current in
            LocalDecision.persists(
              previous: previous.definition.variants.map(\.name), current: current.definition.variants.map(\.name))
              && previous.globalOfLocal == current.globalOfLocal
          }
      }
    })
    service = ServiceTables(plan: plan)
    clashes = ClashTables(plan: plan)

    var slotStart = [0], undefinedStart = [0], undefined: [Int] = []
    var slotExperiment: [Int] = [], slotRange: [TokenRange] = []
    var slotCumulativeStart: [Int] = [], cumulativeWeights: [UInt64] = []
    var slotLocalStart: [Int] = [], localOfGlobal: [Int] = [], slotGlobalStart: [Int] = [], globalOfLocal: [Int] = []
    var slotVariantMask: [UInt64] = [], slotEqualWeights: [Bool] = []
    for version in plan.versions {
      for slot in version.slots {
        slotExperiment.append(slot.experimentID)
        slotRange.append(slot.definition.activeTokenRange)
        slotCumulativeStart.append(cumulativeWeights.count)
        cumulativeWeights += WeightedSelection(slot.definition).cumulative
        slotEqualWeights.append(Set(slot.definition.variants.map(\.weight)).count == 1)
        slotLocalStart.append(localOfGlobal.count)
        localOfGlobal += slot.localOfGlobal
        slotGlobalStart.append(globalOfLocal.count)
        globalOfLocal += slot.globalOfLocal
        slotVariantMask.append(slot.globalOfLocal.reduce(0) { $0 | 1 << UInt64($1) })
      }
      slotStart.append(slotExperiment.count)
      let defined = Set(version.slots.map(\.experimentID))
      undefined += (0..<experimentCount).filter { !defined.contains($0) }
      undefinedStart.append(undefined.count)
    }
    slotCumulativeStart.append(cumulativeWeights.count)
    self.slotStart = ScratchArray(slotStart)
    self.undefinedStart = ScratchArray(undefinedStart)
    self.undefined = ScratchArray(undefined)
    self.slotExperiment = ScratchArray(slotExperiment)
    self.slotRange = ScratchArray(slotRange)
    self.slotCumulativeStart = ScratchArray(slotCumulativeStart)
    self.cumulativeWeights = ScratchArray(cumulativeWeights)
    self.slotEqualWeights = ScratchArray(slotEqualWeights)
    self.slotLocalStart = ScratchArray(slotLocalStart)
    self.localOfGlobal = ScratchArray(localOfGlobal)
    self.slotGlobalStart = ScratchArray(slotGlobalStart)
    self.globalOfLocal = ScratchArray(globalOfLocal)
    self.slotVariantMask = ScratchArray(slotVariantMask)
    experimentSlots = (0..<experimentCount).map { experiment in slotExperiment.indices.filter { slotExperiment[$0] == experiment } }
    let variantStride = max(plan.variantNames.map(\.count).max() ?? 1, 1)
    self.variantStride = variantStride
    slotWeights = plan.versions.flatMap(\.slots).flatMap { slot in
      let weights = slot.definition.variants.map { UInt64($0.weight) }
      return (0..<variantStride).map { variant in
        variant < slot.localOfGlobal.count && slot.localOfGlobal[variant] >= 0 ? weights[slot.localOfGlobal[variant]] : 0
      }
    }

    var variantStart = [0], dailyStart = [0]
    for names in plan.variantNames {
      variantStart.append(variantStart.last! + names.count)
      dailyStart.append(dailyStart.last! + names.count * scenario.days)
    }
    self.variantStart = ScratchArray(variantStart)
    self.dailyStart = ScratchArray(dailyStart)
    let probabilities = plan.experimentNames.map { scenario.displayProbability(of: $0) }
    displayProbabilities = ScratchArray(probabilities)
    displaysWithoutDraws = probabilities.allSatisfy { $0 >= 1 || $0 <= 0 }
    let moments = plan.experimentNames.map { scenario.displayMoment(of: $0) }
    displayMoments = ScratchArray(moments.map { UInt8(DisplayMoment.allCases.firstIndex(of: $0)!) })
    hasDisplayMoments = moments.contains { $0 != .everyLaunch }
    installs = InstallTables(scenario: scenario)
    stores = StoreTables(scenario: scenario)
    activity = ActivityTables(population: scenario.population)

    let segments = scenario.population.segments
    segmentCount = segments.count
    var cumulative = 0.0
    cumulativeShares = segments.map {
      cumulative += $0.share
      return cumulative
    }
    launchProbabilities = ScratchArray(segments.map(\.dailyLaunchProbability))
    segmentNames = segments.map(\.name)
    metricKinds = scenario.metrics.map(\.kind)
    isConversion = ScratchArray(scenario.metrics.map { $0.kind == .conversion })
    metricGrids = ScratchArray(plan.metricStepExponents.map(Moments.init(stepExponent:)))
    excludeContaminated = scenario.analysis.attribution == .excludeContaminated
    covariateCorrelations = scenario.metrics.map(\.covariateCorrelation)
    hasCovariates = covariateCorrelations.contains { $0 != nil }
    let metricNames = scenario.metrics.map(\.name)
    ratioNumerators = scenario.ratios.map { metricNames.firstIndex(of: $0.numerator)! }
    ratioDenominators = scenario.ratios.map { metricNames.firstIndex(of: $0.denominator)! }
    let histogramMetrics = scenario.metrics.indices.filter { scenario.metrics[$0].countsAmounts }
    histogramCount = histogramMetrics.count
    histogramSlots = scenario.metrics.indices.map { histogramMetrics.firstIndex(of: $0) ?? -1 }
    let winsorizedMetrics = scenario.metrics.indices.filter { scenario.metrics[$0].winsorize != nil }
    winsorizedCount = winsorizedMetrics.count
    winsorizedSlots = scenario.metrics.indices.map { winsorizedMetrics.firstIndex(of: $0) ?? -1 }
    winsorizedHistograms = winsorizedMetrics.map { histogramMetrics.firstIndex(of: $0)! }
    baselines = ScratchArray(scenario.metrics.flatMap { metric in segments.map { metric.baseline(in: $0.name) } })
    let lifts = scenario.metrics.flatMap { metric in
      plan.experimentNames.indices.flatMap { experiment in
        plan.variantNames[experiment].flatMap { variant in
          segments.map { metric.lift(of: variant, in: plan.experimentNames[experiment], segment: $0.name) }
        }
      }
    }
    self.lifts = ScratchArray(lifts)
    let initialLifts = scenario.metrics.flatMap { metric in
      plan.experimentNames.indices.flatMap { experiment in
        plan.variantNames[experiment].flatMap { variant in
          segments.map { metric.initialLift(of: variant, in: plan.experimentNames[experiment], segment: $0.name) }
        }
      }
    }
    self.initialLifts = ScratchArray(initialLifts)
    noveltyHalfLives = ScratchArray(plan.experimentNames.map { experiment in
      scenario.metrics.lazy.compactMap { $0.novelty[experiment]?.halfLifeDays }.first ?? 0
    })
    hasNovelty = scenario.metrics.contains { !$0.novelty.isEmpty }
    let variants = variantStart.last!
    liftsMetric = ScratchArray(scenario.metrics.indices.flatMap { metric in
      plan.experimentNames.indices.map { experiment in
        let first = (metric * variants + variantStart[experiment]) * segments.count
        let end = (metric * variants + variantStart[experiment + 1]) * segments.count
        return lifts[first..<end].contains { $0 != 0 } || initialLifts[first..<end].contains { $0 != 0 }
      }
    })
  }

  func variantCount(_ experiment: Int) -> Int {
    variantStart[experiment + 1] - variantStart[experiment]
  }

  /// The segment of a device for a uniform draw in [0, 1).
  func segment(forUnit unit: Double) -> Int {
    var index = 0
    while index < segmentCount - 1 && unit >= cumulativeShares[index] { index += 1 }
    return index
  }

  /// The variant position `bits` select in a slot, by Lab's weighted selection.
  func select(slot: Int, bits: UInt64) -> Int {
    let start = slotCumulativeStart[slot]
    if slotEqualWeights[slot] {
      return WeightedSelection.select(bits: bits, equalWeights: slotCumulativeStart[slot + 1] - start)
    }
    return WeightedSelection.select(bits: bits, count: slotCumulativeStart[slot + 1] - start) {
      cumulativeWeights[start + $0]
    }
  }

  func baseline(metric: Int, segment: Int) -> Double {
    baselines[metric * segmentCount + segment]
  }

  func lift(metric: Int, experiment: Int, variant: Int, segment: Int) -> Double {
    lifts[((metric * variantStart[experimentCount]) + variantStart[experiment] + variant) * segmentCount + segment]
  }

  func initialLift(metric: Int, experiment: Int, variant: Int, segment: Int) -> Double {
    initialLifts[((metric * variantStart[experimentCount]) + variantStart[experiment] + variant) * segmentCount + segment]
  }
}
