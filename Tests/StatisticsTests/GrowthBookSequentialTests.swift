import Testing

@testable import Statistics

/// What the sequential engine's source promises (Waudby-Smith et al., arXiv:2103.06476v7): its
/// p-value may be read at every look and still rejects a true null at most alpha of the time,
/// where the fixed-horizon t test read at every look does not.
@Suite struct GrowthBookSequentialTests {
  /// SplitMix64: a seeded stream, so that the test is the same on every run.
  private struct Stream {
    var state: UInt64
    mutating func next() -> Double {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
  }

  /// The share of A/A replications in which some look's p-value fell below 0.05, for each test.
  private func rejections(replications: Int, looks: Int, devicesPerLook: Int, rate: Double) -> (sequential: Double, fixed: Double) {
    var stream = Stream(state: 20_261_128)
    var sequential = 0, fixed = 0
    for _ in 0..<replications {
      var conversionsA = 0, conversionsB = 0, n = 0
      var rejectedSequential = false, rejectedFixed = false
      for _ in 0..<looks {
        for _ in 0..<devicesPerLook {
          if stream.next() < rate { conversionsA += 1 }
          if stream.next() < rate { conversionsB += 1 }
        }
        n += devicesPerLook
        let a = GrowthBookStatistic.proportion(n: n, sum: Double(conversionsA))
        let b = GrowthBookStatistic.proportion(n: n, sum: Double(conversionsB))
        if GrowthBookSequentialTest().compare(baseline: a, variation: b).pValue < 0.05 { rejectedSequential = true }
        if GrowthBookTTest().compare(baseline: a, variation: b).pValue < 0.05 { rejectedFixed = true }
      }
      if rejectedSequential { sequential += 1 }
      if rejectedFixed { fixed += 1 }
    }
    return (Double(sequential) / Double(replications), Double(fixed) / Double(replications))
  }

  @Test func readAtEveryLookTheSequentialTestKeepsItsLevelAndTheTTestDoesNot() {
    // 2,000 A/A replications of 20 daily looks of 250 devices an arm at a 20% rate.
    let rate = rejections(replications: 2000, looks: 20, devicesPerLook: 250, rate: 0.2)
    // At most alpha: the observed share's 95% upper bound is about 1.2 points above it.
    #expect(rate.sequential <= 0.05, "sequential test rejected \(rate.sequential) of A/A replications")
    // Peeking at a fixed-horizon test rejects far more often than alpha (about a quarter at 20 looks).
    #expect(rate.fixed > 0.15, "t test read daily rejected \(rate.fixed)")
  }

  @Test func theConfidenceSequenceIsWiderThanTheFixedInterval() {
    let a = GrowthBookStatistic.proportion(n: 5000, sum: 1000), b = GrowthBookStatistic.proportion(n: 5000, sum: 1100)
    let fixed = GrowthBookTTest().compare(baseline: a, variation: b)
    let sequential = GrowthBookSequentialTest().compare(baseline: a, variation: b)
    #expect(sequential.expected == fixed.expected)
    #expect(sequential.interval.lower < fixed.interval.lower && sequential.interval.upper > fixed.interval.upper)
    #expect(sequential.pValue > fixed.pValue)
  }
}
