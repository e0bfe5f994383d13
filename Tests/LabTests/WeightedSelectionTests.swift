import Lab
import LabTestKit
import Testing

@Suite struct WeightedSelectionTests {
  /// Weights 1, 2, 2 select A, B and C for 20%, 40% and 40% of all bit
  /// patterns, exactly: B starts at ⌈2⁶⁴/5⌉ and C at ⌈3·2⁶⁴/5⌉.
  @Test func weightsOneTwoTwoGiveTwentyFortyForty() {
    let selection = WeightedSelection(weights: [1, 2, 2])
    #expect(selection.cumulative == [1, 3, 5])
    let startOfB: UInt64 = 3689348814741910324, startOfC: UInt64 = 11068046444225730970
    #expect(selection.select(bits: 0) == 0)
    #expect(selection.select(bits: startOfB - 1) == 0)
    #expect(selection.select(bits: startOfB) == 1)
    #expect(selection.select(bits: startOfC - 1) == 1)
    #expect(selection.select(bits: startOfC) == 2)
    #expect(selection.select(bits: .max) == 2)
    #expect(selection.bits(selecting: 1) == startOfB)
    #expect(selection.bits(selecting: 2) == startOfC)
  }

  @Test func drawsFollowTheWeights() {
    let selection = WeightedSelection(weights: [1, 2, 2])
    var random = SeededGenerator(seed: 5)
    var counts = [0, 0, 0]
    for _ in 0..<50_000 { counts[selection.select(bits: random.next())] += 1 }
    #expect(withinBinomialBound(counts[0], of: 50_000, p: 0.2))
    #expect(withinBinomialBound(counts[1], of: 50_000, p: 0.4))
    #expect(withinBinomialBound(counts[2], of: 50_000, p: 0.4))
  }

  /// The multiplication that replaces the search for equal weights picks the
  /// same variant at every boundary and for random bits, whatever the weight.
  @Test(arguments: [1, 2, 3, 5, 64])
  func equalWeightsSelectAsTheSearchDoes(count: Int) {
    var random = SeededGenerator(seed: UInt64(count))
    for weight in [1, 3, 7, 1000, 1 << 40] {
      let selection = WeightedSelection(weights: Array(repeating: weight, count: count))
      var patterns: [UInt64] = [0, .max]
      for index in 1..<count {
        let start = selection.bits(selecting: index)
        patterns += [start - 1, start]
      }
      for _ in 0..<2_000 { patterns.append(random.next()) }
      for bits in patterns {
        #expect(WeightedSelection.select(bits: bits, equalWeights: count) == selection.select(bits: bits))
      }
      #expect(WeightedSelection.select(bits: selection.bits(selecting: count - 1), equalWeights: count) == count - 1)
    }
  }

  @Test func aSingleVariantIsAlwaysSelected() {
    let selection = WeightedSelection(weights: [7])
    #expect(selection.select(bits: 0) == 0)
    #expect(selection.select(bits: .max) == 0)
  }
}
