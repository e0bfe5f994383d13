import Foundation
import LabTestKit
@testable import Simulation
import Tallies
import Testing

/// The amounts by size behind a metric's quantiles: each bucket's value is
/// within 2⁻⁸ of the amounts in it, buckets keep the amounts' order, and
/// histograms merge exactly whatever the grouping.
@Suite struct AmountHistogramTests {
  @Test func everyAmountIsWithinTwoToTheMinusEightOfItsBucketsValue() {
    var stream = RandomStream(state: 20261124)
    var samples: [Int64] = Array(0..<2048) + [Int64(1) << 62, (Int64(1) << 62) - 1]
    for _ in 0..<100_000 { samples.append(Int64(stream.next() >> 2)) }
    for _ in 0..<10_000 { samples.append(Int64(stream.next() >> (2 + stream.next() % 60))) }
    for steps in samples {
      let bucket = AmountHistogram.bucket(steps: steps)
      #expect((0..<AmountHistogram.bucketCount).contains(bucket))
      let value = AmountHistogram.representative(bucket)
      #expect(abs(value - Double(steps)) <= Double(steps) / 256, "\(steps) stands as \(value)")
      if steps < 128 { #expect(value == Double(steps)) }
    }
    #expect(AmountHistogram.bucket(steps: Int64(1) << 62) == AmountHistogram.bucketCount - 1)
    #expect(AmountHistogram.bucket(steps: -5) == 0)
    let sorted = samples.sorted()
    #expect(zip(sorted, sorted.dropFirst()).allSatisfy { AmountHistogram.bucket(steps: $0) <= AmountHistogram.bucket(steps: $1) })
  }

  @Test func histogramsMergeExactlyAndListTheirAmountsInOrder() {
    let grid = Moments(stepExponent: Moments.stepExponent(forScale: 10))
    var stream = RandomStream(state: 7)
    let amounts = (0..<20_000).map { _ in 10 * exp(stream.nextNormal()) }
    var whole = AmountHistogram(stepExponent: grid.stepExponent)
    var parts = [whole, whole, whole]
    for (index, amount) in amounts.enumerated() {
      whole.add(steps: grid.steps(amount))
      parts[index % 3].add(steps: grid.steps(amount))
    }
    var merged = parts[2]
    merged.merge(parts[0])
    merged.merge(parts[1])
    #expect(merged == whole)
    let (values, counts, lowerEdges, upperEdges) = whole.distribution
    #expect(counts.reduce(0, +) == amounts.count && counts.allSatisfy { $0 > 0 })
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 < $1 })
    // Each bucket's edges hold its value, the amounts it counts, and no other bucket's.
    #expect(values.indices.allSatisfy { lowerEdges[$0] <= values[$0] && values[$0] <= upperEdges[$0] })
    #expect(zip(upperEdges, lowerEdges.dropFirst()).allSatisfy { $0 < $1 })
    for amount in amounts.prefix(1000) {
      let steps = grid.steps(amount), value = Double(steps) * grid.step
      #expect(values.indices.contains { lowerEdges[$0] <= value && value <= upperEdges[$0] }, "\(amount)")
    }
    // The median of the buckets' values is within 2⁻⁸ of the amounts' own.
    let median = amounts.sorted()[amounts.count / 2 - 1]
    var seen = 0
    let bucketMedian = zip(values, counts).first { _, count in
      seen += count
      return seen >= amounts.count / 2
    }!.0
    #expect(abs(bucketMedian - median) <= median / 256 + grid.step)
  }

  @Test func winsorizedMomentsAreExactlyThoseOfTheCappedAmounts() throws {
    var stream = RandomStream(state: 20261125)
    let grid = Moments(stepExponent: Moments.stepExponent(forScale: 10))
    let amounts = (0..<30_000).map { _ in grid.steps(10 * exp(2 * stream.nextNormal())) }
    var histograms = [AmountHistogram(stepExponent: grid.stepExponent, keepsMoments: true)]
    histograms.append(histograms[0])
    for (index, steps) in amounts.enumerated() { histograms[index % 2].add(steps: steps) }
    let sorted = amounts.sorted()
    for percentile in [0.5, 0.9, 0.99, 0.999] {
      let cap = try #require(AmountHistogram.cap(percentile: percentile, of: histograms))
      // The cap is the top of the percentile's bucket: at or above it, by at most 1/128.
      let exact = sorted[Int((percentile * Double(amounts.count)).rounded(.up)) - 1]
      #expect(cap >= exact && Double(cap) <= Double(exact) * (1 + 1.0 / 128), "\(percentile): \(cap) for \(exact)")
      for (part, histogram) in histograms.enumerated() {
        var expected = grid
        var capped = 0
        for (index, steps) in amounts.enumerated() where index % 2 == part {
          expected.add(steps: min(steps, cap))
          if steps > cap { capped += 1 }
        }
        let winsorized = histogram.winsorized(atSteps: cap)
        #expect(winsorized.moments == expected && winsorized.capped == capped)
      }
    }
    #expect(AmountHistogram.cap(percentile: 0.99, of: [AmountHistogram(stepExponent: 0)]) == nil)
  }

  @Test func addingAnAmountManyTimesIsAddingItOnceEachTime() {
    for (steps, times) in [(Int64(3), 5), (Int64(1) << 62, 1_000), (-(Int64(1) << 40), 77), (12_345, 0)] {
      var once = Moments(stepExponent: -3), repeated = once
      once.add(steps: steps, times: times)
      for _ in 0..<times { repeated.add(steps: steps) }
      #expect(once == repeated)
    }
  }
}
