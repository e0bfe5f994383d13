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
    var adding = CountAdding(listing)
    visitCounts(&adding)
    precondition(adding.isAtEnd, "tallies of one plan have the same counts")
  }
}

/// The counts of a tally in visiting order, an array per kind: a tally's
/// histograms hold most of its counts, so its listing takes 8 bytes for most
/// counts rather than the 48 of an enum that could hold any kind.
private struct CountListing: TallyVisitor {
  var counts: [Int] = []
  var sums: [Int128] = []
  /// Each 256-bit sum as its low half, then its high one.
  var wides: [UInt128] = []
  var days: [Int?] = []

  mutating func visit(_ count: inout Int) { counts.append(count) }
  mutating func visit(_ count: inout Int128) { sums.append(count) }
  mutating func visit(low: inout UInt128, high: inout UInt128) {
    wides.append(low)
    wides.append(high)
  }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { days.append(day) }
}

/// Merges listed counts into a tally of the same shape, visited in the same
/// order: each kind is taken in turn from its own array, and a tally of another
/// shape runs past the end of one or leaves one unfinished.
private struct CountAdding: TallyVisitor {
  private let listing: CountListing
  private var nextCount = 0, nextSum = 0, nextWide = 0, nextDay = 0

  init(_ listing: CountListing) {
    self.listing = listing
  }

  var isAtEnd: Bool {
    nextCount == listing.counts.count && nextSum == listing.sums.count && nextWide == listing.wides.count
      && nextDay == listing.days.count
  }

  mutating func visit(_ count: inout Int) {
    precondition(nextCount < listing.counts.count, "a count where the other tally has none left")
    count += listing.counts[nextCount]
    nextCount += 1
  }

  mutating func visit(_ count: inout Int128) {
    precondition(nextSum < listing.sums.count, "a sum where the other tally has none left")
    count += listing.sums[nextSum]
    nextSum += 1
  }

  mutating func visit(low: inout UInt128, high: inout UInt128) {
    precondition(nextWide < listing.wides.count, "a 256-bit sum where the other tally has none left")
    let (sum, carry) = low.addingReportingOverflow(listing.wides[nextWide])
    low = sum
    high += listing.wides[nextWide + 1] + (carry ? 1 : 0)
    nextWide += 2
  }

  mutating func visit(_ day: inout Int?, keeping bound: DayBound) {
    precondition(nextDay < listing.days.count, "a day where the other tally has none left")
    let other = listing.days[nextDay]
    nextDay += 1
    guard let other else { return }
    guard let known = day else {
      day = other
      return
    }
    day = bound == .earliest ? min(known, other) : max(known, other)
  }
}
