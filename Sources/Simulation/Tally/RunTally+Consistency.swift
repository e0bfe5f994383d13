import Tallies

extension RunTally {
  /// What in these counts no run could have counted, or `nil` when they hold
  /// together: a part file's checksum proves it was not damaged, not that a
  /// run wrote it, and counts that contradict each other would reach the
  /// statistics as impossible inputs (more conversions than devices, a
  /// negative variance). Each relation below holds for every tally the
  /// simulator folds, whatever its devices and days.
  public var inconsistency: String? {
    for (index, experiment) in experiments.enumerated() {
      let name = "experiment \(index)"
      guard experiment.variants.map(\.firstExposed).reduce(0, +) <= devices else {
        return "\(name) counts more first exposures than devices"
      }
      guard experiment.mixedDevices <= experiment.variants.map(\.contaminated).reduce(0, +) else {
        return "\(name) counts more mixed devices than contaminated ones"
      }
      for (variant, tally) in experiment.variants.enumerated() {
        let cell = "\(name), variant \(variant)"
        guard tally.contaminated <= tally.exposed, tally.firstExposed <= tally.exposed else {
          return "\(cell) counts more contaminated or first-exposed devices than exposed ones"
        }
        guard tally.enrolledShown <= tally.enrolled else { return "\(cell) counts more shown than enrolled devices" }
        for metric in tally.firstExposure.indices {
          guard tally.firstExposure[metric].outcomes.count == tally.firstExposed,
            tally.uncontaminated[metric].outcomes.count <= tally.firstExposed,
            tally.enrolledOutcomes[metric].outcomes.count == tally.enrolled
          else { return "\(cell), metric \(metric): its outcomes count other devices than its exposures" }
        }
        let metrics = tally.firstExposure + tally.uncontaminated + tally.enrolledOutcomes
        if let problem = Self.inconsistency(of: metrics) { return "\(cell): \(problem)" }
        guard tally.covariates.allSatisfy({ $0.covariates.isPossible }) else { return "\(cell): impossible covariates" }
        for histogram in tally.histograms {
          guard histogram.counts.reduce(0, +) <= tally.firstExposed, histogram.moments.allSatisfy(\.isPossible),
            histogram.moments.isEmpty || zip(histogram.counts, histogram.moments).allSatisfy({ $0 == $1.count })
          else { return "\(cell): its amounts by size do not add up" }
        }
      }
      let daily = experiment.dailyNewExposures, variants = experiment.variants.count
      for variant in 0..<variants {
        let days = stride(from: variant, to: daily.count, by: variants).map { daily[$0] }.reduce(0, +)
        guard days == experiment.variants[variant].exposed else {
          return "\(name), variant \(variant): its daily new exposures do not add up to its exposed devices"
        }
      }
      if let problem = Self.inconsistency(of: experiment.dailyCohorts + experiment.noveltyLooks + experiment.neverEnrolled) {
        return "\(name): \(problem)"
      }
      // Each metric counts every never-enrolled device, and there are no more of them than devices.
      guard (0...devices).contains(experiment.neverEnrolledDevices),
        experiment.neverEnrolled.allSatisfy({ $0.outcomes.count == experiment.neverEnrolledDevices })
      else { return "\(name): its never-enrolled devices do not add up" }
    }
    for rule in enrollment.conditionMet.indices {
      // A precondition lapses only on a device that met it, once.
      let met = enrollment.conditionMet[rule].reduce(0, +), lapsed = enrollment.conditionLapsed[rule].reduce(0, +)
      guard met <= devices, lapsed <= met, enrollment.conditionLapsed[rule].allSatisfy({ $0 >= 0 }) else {
        return "enrollment rule \(rule): more preconditions lapsed than met, or met than devices"
      }
    }
    guard stabilizedDevices <= devices, stabilizedByDay.reduce(0, +) == stabilizedDevices else {
      return "its stabilized devices do not add up"
    }
    let days = stabilizedByDay.count
    for (row, conflict) in conflicts.enumerated() {
      guard conflict.devices <= devices else { return "shared key \(row) counts more devices than the run has" }
      // A clash has a first and a last day, in order and within the run, exactly when a device met one.
      switch (conflict.firstDay, conflict.lastDay) {
      case (nil, nil) where conflict.devices == 0: continue
      case let (first?, last?) where conflict.devices > 0 && 0 <= first && first <= last && last < days: continue
      default: return "shared key \(row) has clash days outside the run or without its devices"
      }
    }
    return nil
  }

  private static func inconsistency(of tallies: [MetricTally]) -> String? {
    for tally in tallies {
      guard tally.conversions <= tally.outcomes.count else { return "more conversions than devices" }
      guard tally.outcomes.isPossible else { return "sums no set of amounts has" }
    }
    return nil
  }
}

extension Moments {
  /// Whether these could be the moments of `count` values on the grid: each
  /// value lies within ±2⁶² steps, so |Σx| ≤ n·2⁶² and Σx² ≤ n·2¹²⁴, and
  /// n·Σx² ≥ (Σx)² (Cauchy–Schwarz), without which the variance is negative.
  var isPossible: Bool {
    guard count > 0 else { return count == 0 && sum == 0 && squaresLow == 0 && squaresHigh == 0 }
    let n = UInt128(count)
    guard n < 1 << 64, sum.magnitude <= n << 62 else { return false }
    // n·2¹²⁴ as a 256-bit number: its high and low 128 bits.
    let boundHigh = n >> 4, boundLow = (n & 15) << 124
    guard squaresHigh < boundHigh || (squaresHigh == boundHigh && squaresLow <= boundLow) else { return false }
    // n·Σx², which fits: n < 2⁶⁴ and Σx² ≤ n·2¹²⁴.
    let lowProduct = n.multipliedFullWidth(by: squaresLow)
    let scaledHigh = lowProduct.high + n * squaresHigh, scaledLow = lowProduct.low
    let square = sum.magnitude.multipliedFullWidth(by: sum.magnitude)
    return scaledHigh > square.high || (scaledHigh == square.high && scaledLow >= square.low)
  }
}
