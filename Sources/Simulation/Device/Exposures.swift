import Foundation

/// What a device was displayed of each experiment, and the batch's exposure
/// counts: `VariantTally.exposed`, `contaminated` and `firstExposed`,
/// `ExperimentTally.mixedDevices` and `dailyNewExposures`.
struct Exposures: DevicePart, ~Copyable {
  // The device, reset for each.
  /// Display days per experiment and variant, by `tables.variantStart[experiment] + variant`.
  private var displayDays: ScratchArray<Int32>
  /// By the same index, Σ over the display days of 2^(−t / half-life), t the
  /// days since the device's first exposure to the experiment: how much of
  /// the initial lift is left on them, summed (`Novelty`). Kept only where an
  /// experiment has novelty (`SimulationTables.hasNovelty`).
  private var noveltyWeights: ScratchArray<Double>
  /// By `day * cells + tables.variantStart[experiment] + variant`, the
  /// displays and novelty weights that day added to the two above, for the
  /// experiments with novelty: what the daily looks rebuild the device's
  /// display days from (`startLooks`). Written, and cleared, between
  /// `noveltyDays`' bounds only.
  private var dailyDisplays: ScratchArray<Int32>
  private var dailyNoveltyWeights: ScratchArray<Double>
  private var noveltyDays = (first: Int.max, last: -1)
  private let cells: Int
  /// Per experiment, the variants displayed, a bit each: an experiment has
  /// at most 64 (`ScenarioLimits.variants`), so masks shift with `&<<`.
  private(set) var displayedMask: ScratchArray<UInt64>
  /// Per experiment, the first variant displayed (−1 before any) and its day.
  private(set) var firstVariant: ScratchArray<Int>
  private(set) var firstDay: ScratchArray<Int>
  /// The experiments displayed so far, in the order of their first display,
  /// until `sortShown` puts them in the plan's order.
  private(set) var shown: ScratchArray<Int>
  private(set) var shownCount = 0

  // The batch's counts.
  /// By `tables.dailyStart[experiment] + day * variants + variant`.
  private var dailyNewExposures: ScratchArray<Int>
  /// By `tables.variantStart[experiment] + variant`.
  private var exposed: ScratchArray<Int>
  private var contaminated: ScratchArray<Int>
  private var firstExposed: ScratchArray<Int>
  /// By experiment.
  private var mixedDevices: ScratchArray<Int>

  init(tables: borrowing @_addressable SimulationTables) {
    let experiments = tables.experimentCount, variants = tables.variantStart[experiments]
    displayDays = ScratchArray(repeating: 0, count: variants)
    noveltyWeights = ScratchArray(repeating: 0, count: tables.hasNovelty ? variants : 0)
    dailyDisplays = ScratchArray(repeating: 0, count: tables.hasNovelty ? tables.days * variants : 0)
    dailyNoveltyWeights = ScratchArray(repeating: 0, count: tables.hasNovelty ? tables.days * variants : 0)
    cells = variants
    displayedMask = ScratchArray(repeating: 0, count: experiments)
    firstVariant = ScratchArray(repeating: -1, count: experiments)
    firstDay = ScratchArray(repeating: 0, count: experiments)
    shown = ScratchArray(repeating: 0, count: experiments)
    dailyNewExposures = ScratchArray(repeating: 0, count: tables.dailyStart[experiments])
    exposed = ScratchArray(repeating: 0, count: variants)
    contaminated = ScratchArray(repeating: 0, count: variants)
    firstExposed = ScratchArray(repeating: 0, count: variants)
    mixedDevices = ScratchArray(repeating: 0, count: experiments)
  }

  /// A new device: nothing displayed. Only the experiments the last device
  /// was shown (`shown`) hold a mask and a first variant to clear.
  @inline(__always)
  mutating func reset(device _: Int, random _: DeviceRandom) {
    for position in 0..<shownCount {
      displayedMask[shown[position]] = 0
      firstVariant[shown[position]] = -1
    }
    shownCount = 0
    displayDays.fill(0)
    noveltyWeights.fill(0)
    if noveltyDays.first <= noveltyDays.last {
      let written = noveltyDays.first * cells..<(noveltyDays.last + 1) * cells
      dailyDisplays.fill(0, in: written)
      dailyNoveltyWeights.fill(0, in: written)
      noveltyDays = (.max, -1)
    }
  }

  /// Counts one display; returns whether it is the device's first of the experiment.
  @inline(__always)
  mutating func record(_ experiment: Int, variant: Int, day: Int, tables: borrowing @_addressable SimulationTables) -> Bool {
    displayDays[tables.variantStart[experiment] + variant] += 1
    let bit: UInt64 = 1 &<< UInt64(variant)
    if displayedMask[experiment] & bit == 0 {
      dailyNewExposures[tables.dailyStart[experiment] + day * tables.variantCount(experiment) + variant] += 1
    }
    displayedMask[experiment] |= bit
    guard firstVariant[experiment] < 0 else { return false }
    firstVariant[experiment] = variant
    shown[shownCount] = experiment
    shownCount += 1
    firstDay[experiment] = day
    return true
  }

  /// `count` more displays of a variant the device was displayed earlier the
  /// same day: its display days only, as `record` would count them one by one.
  @inline(__always)
  mutating func recordRepeated(_ experiment: Int, variant: Int, count: Int, tables: borrowing @_addressable SimulationTables) {
    displayDays[tables.variantStart[experiment] + variant] += Int32(count)
  }

  /// Adds `count` displays' share of the initial lift left, 2^(−t / half-life)
  /// each, t days after the first exposure, for a plan with novelty
  /// (`SimulationTables.hasNovelty`), after `record` (or `recordRepeated`).
  @inline(__always)
  mutating func recordNovelty(
    _ experiment: Int, variant: Int, day: Int, count: Int = 1, tables: borrowing @_addressable SimulationTables
  ) {
    let halfLife = tables.noveltyHalfLives[experiment]
    guard halfLife > 0 else { return }
    let cell = tables.variantStart[experiment] + variant
    let weight = exp2(-Double(day - firstDay[experiment]) / halfLife)
    // Added once a display, as the displays were counted one by one before they were counted at once.
    for _ in 0..<count { noveltyWeights[cell] += weight }
    dailyDisplays[day * cells + cell] += Int32(count)
    for _ in 0..<count { dailyNoveltyWeights[day * cells + cell] += weight }
    noveltyDays = (min(noveltyDays.first, day), max(noveltyDays.last, day))
  }

  /// The daily looks of a device displayed an experiment with novelty: its
  /// days from the first such display to the run's last, or an empty range.
  /// The novelty experiments' display days and weights start again from
  /// none, for `advanceLook` to add back day by day; the device's counts are
  /// over, so nothing reads the whole run's again before `reset`.
  mutating func startLooks(tables: borrowing @_addressable SimulationTables) -> Range<Int> {
    guard noveltyDays.first <= noveltyDays.last else { return 0..<0 }
    for position in 0..<shownCount where tables.noveltyHalfLives[shown[position]] > 0 {
      let experiment = shown[position]
      for cell in tables.variantStart[experiment]..<tables.variantStart[experiment + 1] {
        displayDays[cell] = 0
        noveltyWeights[cell] = 0
      }
    }
    return noveltyDays.first..<tables.days
  }

  /// Adds `day`'s displays of the experiments with novelty, so that the
  /// lifts read what the display days up to its end carry; the days follow
  /// each other from `startLooks`' first. Returns false after the last of
  /// them, when the lifts stand still.
  mutating func advanceLook(to day: Int, tables: borrowing @_addressable SimulationTables) -> Bool {
    guard day <= noveltyDays.last else { return false }
    for position in 0..<shownCount where tables.noveltyHalfLives[shown[position]] > 0 {
      let experiment = shown[position]
      for cell in tables.variantStart[experiment]..<tables.variantStart[experiment + 1] {
        displayDays[cell] += dailyDisplays[day * cells + cell]
        noveltyWeights[cell] += dailyNoveltyWeights[day * cells + cell]
      }
    }
    return true
  }

  /// Whether the device was displayed one variant of the experiment only.
  @inline(__always)
  func isPure(_ experiment: Int) -> Bool {
    let mask = displayedMask[experiment]
    return mask & (mask &- 1) == 0
  }

  /// Puts the shown experiments in the plan's order, the order in which a
  /// device's lifts multiply (a product of doubles depends on its order). The
  /// list is short: the experiments one device was shown.
  mutating func sortShown() {
    guard shownCount > 1 else { return }
    for position in 1..<shownCount {
      let experiment = shown[position]
      var target = position
      while target > 0 && shown[target - 1] > experiment {
        shown[target] = shown[target - 1]
        target -= 1
      }
      shown[target] = experiment
    }
  }

  /// The lift an experiment's displayed variants give, weighted by display
  /// days: 0 for an experiment that lifts the metric nowhere, as the weighted
  /// sum of its zero lifts would give, and before its first display day (a
  /// daily look before it, `advanceLook`).
  @inline(__always)
  func mixedLift(_ experiment: Int, metric: Int, segment: Int, tables: borrowing @_addressable SimulationTables) -> Double {
    guard tables.liftsMetric[metric * tables.experimentCount + experiment] else { return 0 }
    var weighted = 0.0, days: Int32 = 0
    let start = tables.variantStart[experiment]
    // The displayed variants, in order: those with display days.
    var displayed = displayedMask[experiment]
    while displayed != 0 {
      let variant = displayed.trailingZeroBitCount
      displayed &= displayed - 1
      let count = displayDays[start + variant]
      weighted += Double(count) * tables.lift(metric: metric, experiment: experiment, variant: variant, segment: segment)
      days += count
    }
    return days > 0 ? weighted / Double(days) : 0
  }

  /// `mixedLift` for a plan with novelty: each display day t days after the
  /// first exposure adds (initial − settled) 2^(−t/h) to its variant's
  /// settled lift.
  func movingLift(_ experiment: Int, metric: Int, segment: Int, tables: borrowing @_addressable SimulationTables) -> Double {
    let settled = mixedLift(experiment, metric: metric, segment: segment, tables: tables)
    guard tables.noveltyHalfLives[experiment] > 0, tables.liftsMetric[metric * tables.experimentCount + experiment] else {
      return settled
    }
    return settled + perDisplayDay(experiment, tables: tables) { variant in
      tables.initialLift(metric: metric, experiment: experiment, variant: variant, segment: segment)
        - tables.lift(metric: metric, experiment: experiment, variant: variant, segment: segment)
    }
  }

  /// Of an experiment's initial lift, the share its display days carry on
  /// average (Σ 2^(−t/h) over the days / the days): what a device shown one
  /// variant on the same days would carry. 0 without novelty.
  func noveltyShare(_ experiment: Int, tables: borrowing @_addressable SimulationTables) -> Double {
    guard tables.hasNovelty, tables.noveltyHalfLives[experiment] > 0 else { return 0 }
    return perDisplayDay(experiment, tables: tables) { _ in 1 }
  }

  /// Σ over the displayed variants of their novelty weights times `factor`,
  /// over the experiment's display days; 0 before any display.
  private func perDisplayDay(
    _ experiment: Int, tables: borrowing @_addressable SimulationTables, factor: (Int) -> Double
  ) -> Double {
    var weighted = 0.0, days: Int32 = 0
    let start = tables.variantStart[experiment]
    var displayed = displayedMask[experiment]
    while displayed != 0 {
      let variant = displayed.trailingZeroBitCount
      displayed &= displayed - 1
      weighted += noveltyWeights[start + variant] * factor(variant)
      days += displayDays[start + variant]
    }
    return days > 0 ? weighted / Double(days) : 0
  }

  /// Counts the device for every experiment it was displayed.
  @inline(__always)
  mutating func countDevice(tables: borrowing @_addressable SimulationTables) {
    for position in 0..<shownCount {
      let experiment = shown[position]
      let mask = displayedMask[experiment], start = tables.variantStart[experiment]
      let pure = isPure(experiment)
      var displayed = mask
      while displayed != 0 {
        let variant = displayed.trailingZeroBitCount
        displayed &= displayed - 1
        exposed[start + variant] += 1
        if !pure { contaminated[start + variant] += 1 }
      }
      firstExposed[start + firstVariant[experiment]] += 1
      if !pure { mixedDevices[experiment] += 1 }
    }
  }

  func fold(into tally: inout RunTally, tables: borrowing @_addressable SimulationTables) {
    for experiment in 0..<tables.experimentCount {
      let start = tables.dailyStart[experiment]
      for index in tally.experiments[experiment].dailyNewExposures.indices {
        tally.experiments[experiment].dailyNewExposures[index] += dailyNewExposures[start + index]
      }
      tally.experiments[experiment].mixedDevices += mixedDevices[experiment]
      for variant in 0..<tables.variantCount(experiment) {
        let cell = tables.variantStart[experiment] + variant
        tally.experiments[experiment].variants[variant].exposed += exposed[cell]
        tally.experiments[experiment].variants[variant].contaminated += contaminated[cell]
        tally.experiments[experiment].variants[variant].firstExposed += firstExposed[cell]
      }
    }
  }
}
