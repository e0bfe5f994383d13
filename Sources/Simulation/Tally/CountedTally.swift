/// A tally whose counts `visitCounts` declares, each with the way it merges:
/// the merge follows from that one declaration, so that a count added to a
/// tally (and to its visit) merges with no line of its own to keep in step.
protocol CountedTally {
  mutating func visitCounts<Visitor: TallyVisitor>(_ visitor: inout Visitor)
}

extension CountedTally {
  /// Adds another tally of the same plan, exactly, each count as its visit
  /// declares (a sum, a 256-bit sum, the earlier or the later day): tallies
  /// merge to the same totals in any order and grouping.
  mutating func mergeCounts(of other: consuming Self) {
    var other = other
    var listing = CountListing()
    other.visitCounts(&listing)
    var adding = CountAdding(listing.counts)
    visitCounts(&adding)
    precondition(adding.isAtEnd, "tallies of one plan have the same counts")
  }
}

/// One count as a visit hands it over.
private enum VisitedCount {
  case count(Int)
  case sum(Int128)
  case wide(low: UInt128, high: UInt128)
  case day(Int?)
}

/// The counts of a tally in visiting order.
private struct CountListing: TallyVisitor {
  var counts: [VisitedCount] = []

  mutating func visit(_ count: inout Int) { counts.append(.count(count)) }
  mutating func visit(_ count: inout Int128) { counts.append(.sum(count)) }
  mutating func visit(low: inout UInt128, high: inout UInt128) { counts.append(.wide(low: low, high: high)) }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { counts.append(.day(day)) }
}

/// Merges listed counts into a tally of the same shape, visited in the same order.
private struct CountAdding: TallyVisitor {
  private let counts: [VisitedCount]
  private var next = 0

  init(_ counts: [VisitedCount]) {
    self.counts = counts
  }

  var isAtEnd: Bool { next == counts.count }

  private mutating func take() -> VisitedCount {
    precondition(next < counts.count, "tallies of one plan have the same counts")
    defer { next += 1 }
    return counts[next]
  }

  mutating func visit(_ count: inout Int) {
    guard case .count(let other) = take() else { preconditionFailure("a count where the other tally has another kind") }
    count += other
  }

  mutating func visit(_ count: inout Int128) {
    guard case .sum(let other) = take() else { preconditionFailure("a sum where the other tally has another kind") }
    count += other
  }

  mutating func visit(low: inout UInt128, high: inout UInt128) {
    guard case .wide(let otherLow, let otherHigh) = take() else {
      preconditionFailure("a 256-bit sum where the other tally has another kind")
    }
    let (sum, carry) = low.addingReportingOverflow(otherLow)
    low = sum
    high += otherHigh + (carry ? 1 : 0)
  }

  mutating func visit(_ day: inout Int?, keeping bound: DayBound) {
    guard case .day(let other) = take() else { preconditionFailure("a day where the other tally has another kind") }
    guard let other else { return }
    guard let known = day else {
      day = other
      return
    }
    day = bound == .earliest ? min(known, other) : max(known, other)
  }
}
