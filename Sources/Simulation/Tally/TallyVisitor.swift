import Tallies

/// Visits every count a `RunTally` holds, in one fixed order, with write
/// access: the one place that says what a tally is made of and how each of
/// its counts merges, so that a shard's tally is written out and read back,
/// and two tallies merge (`CountedTally.mergeCounts`), without a second list
/// of its fields to keep in step.
///
/// The tally's shape (how many experiments, variants, days, metrics) comes
/// from its plan, not from the visit: a reader builds `RunTally(plan:)` for the
/// same plan and lets the visit overwrite its zeros.
public protocol TallyVisitor {
  /// A number of devices, launches or events: merged as a sum, never negative.
  mutating func visit(_ count: inout Int)
  /// An exact sum of steps on a grid: merged as a sum.
  mutating func visit(_ count: inout Int128)
  /// A 256-bit sum kept as two halves (of squares, cubes or products):
  /// merged as one number, the low half carrying into the high one.
  mutating func visit(low: inout UInt128, high: inout UInt128)
  /// A day that may be absent (a clash's first or last): merged as the
  /// earlier or the later of two, whichever `bound` says.
  mutating func visit(_ day: inout Int?, keeping bound: DayBound)
}

/// Which of two days a merge keeps.
public enum DayBound: Sendable {
  case earliest, latest
}

extension TallyVisitor {
  mutating func visit(_ counts: inout [Int]) {
    for index in counts.indices { visit(&counts[index]) }
  }

  mutating func visit(_ counts: inout [[Int]]) {
    for index in counts.indices { visit(&counts[index]) }
  }
}

extension RunTally {
  /// Calls `visitor` on every count of the tally, always in the same order.
  public mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&devices)
    visitor.visit(&launches)
    visitor.visit(&stabilizedDevices)
    visitor.visit(&stabilizedByDay)
    remote.visitCounts(&visitor)
    service.visitCounts(&visitor)
    enrollment.visitCounts(&visitor)
    visitor.visit(&upgrades)
    for index in experiments.indices { experiments[index].visitCounts(&visitor) }
    for index in conflicts.indices { conflicts[index].visitCounts(&visitor) }
  }
}

extension Moments {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&valueCount)
    visitor.visit(&sum)
    visitor.visit(low: &squaresLow, high: &squaresHigh)
  }
}

extension CrossProducts {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(low: &positiveLow, high: &positiveHigh)
    visitor.visit(low: &negativeLow, high: &negativeHigh)
  }
}

extension CovariateTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    covariates.visitCounts(&visitor)
    products.visitCounts(&visitor)
  }
}

extension ExactSum {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&steps)
  }
}

extension MetricTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    outcomes.visitCounts(&visitor)
    visitor.visit(low: &cubes.positiveLow, high: &cubes.positiveHigh)
    visitor.visit(low: &cubes.negativeLow, high: &cubes.negativeHigh)
    visitor.visit(&conversions)
    trueMeanSum.visitCounts(&visitor)
  }
}

extension [MetricTally] {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    for index in indices { self[index].visitCounts(&visitor) }
  }
}

extension VariantTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&exposed)
    visitor.visit(&contaminated)
    visitor.visit(&firstExposed)
    expectedFirstExposed.visitCounts(&visitor)
    firstExposure.visitCounts(&visitor)
    uncontaminated.visitCounts(&visitor)
    visitor.visit(&enrolled)
    visitor.visit(&enrolledShown)
    enrolledOutcomes.visitCounts(&visitor)
    for index in covariates.indices { covariates[index].visitCounts(&visitor) }
    for index in ratios.indices { ratios[index].visitCounts(&visitor) }
    for index in histograms.indices {
      visitor.visit(&histograms[index].counts)
      for bucket in histograms[index].moments.indices { histograms[index].moments[bucket].visitCounts(&visitor) }
    }
  }
}

extension TransitionCounts {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&kept)
    visitor.visit(&reassigned)
    visitor.visit(&deactivated)
    visitor.visit(&activated)
    visitor.visit(&returned)
    visitor.visit(&returnedOnAnotherVariant)
  }
}

extension ExperimentTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    for index in variants.indices { variants[index].visitCounts(&visitor) }
    visitor.visit(&mixedDevices)
    for index in transitions.indices { transitions[index].visitCounts(&visitor) }
    visitor.visit(&dailyNewExposures)
    neverEnrolled.visitCounts(&visitor)
    visitor.visit(&neverEnrolledDevices)
    dailyCohorts.visitCounts(&visitor)
    noveltyLooks.visitCounts(&visitor)
  }
}

extension ConflictTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&devices)
    visitor.visit(&firstDay, keeping: .earliest)
    visitor.visit(&lastDay, keeping: .latest)
    visitor.visit(&served)
  }
}

extension ChangeCounts {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&devices)
    visitor.visit(&kept)
    visitor.visit(&moved)
    visitor.visit(&left)
    visitor.visit(&entered)
    visitor.visit(&tookValues)
    visitor.visit(&overridden)
    visitor.visit(&keptOldValues)
  }
}

extension RemoteTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&failedFetches)
    visitor.visit(&defaultFallbacks)
    visitor.visit(&tracking)
    visitor.visit(&overridden)
    for index in enrollment.indices {
      visitor.visit(&enrollment[index].eligible)
      visitor.visit(&enrollment[index].enrolled)
      visitor.visit(&enrollment[index].daysToEnroll)
    }
    for index in churn.indices {
      visitor.visit(&churn[index].exposed)
      visitor.visit(&churn[index].lost)
      visitor.visit(&churn[index].stuck)
      visitor.visit(&churn[index].rescued)
    }
    for experiment in changes.indices {
      for revision in changes[experiment].indices { changes[experiment][revision].visitCounts(&visitor) }
    }
  }
}

extension ServiceTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    for experiment in changes.indices {
      for revision in changes[experiment].indices { changes[experiment][revision].visitCounts(&visitor) }
    }
    visitor.visit(&reinstalled)
    visitor.visit(&failedFetches)
    visitor.visit(&staleActivations)
    visitor.visit(&flagOn)
    visitor.visit(&flagUnknown)
  }
}

extension EnrollmentTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor) {
    visitor.visit(&conditionMet)
    visitor.visit(&conditionLapsed)
    visitor.visit(&handshakes)
    visitor.visit(&userSwitches)
    visitor.visit(&activeBySegment)
    visitor.visit(&enrolledBySegment)
  }
}

extension RunTally: CountedTally {}
extension ConflictTally: CountedTally {}
extension RemoteTally: CountedTally {}
extension ServiceTally: CountedTally {}
extension EnrollmentTally: CountedTally {}
