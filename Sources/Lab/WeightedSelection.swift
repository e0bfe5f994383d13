// SPDX-License-Identifier: Apache-2.0

/// Lab's weighted discrete uniform choice of a variant.
///
/// Variant i of weights w is selected with probability wᵢ / Σw. The choice is
/// made from 64 random bits with integer arithmetic only (the high word of
/// bits × Σw, as in Lemire's bounded integers), so the same bits select the
/// same variant on every platform and Swift version.
public struct WeightedSelection: Hashable, Sendable {
  /// Running sums of the weights: `cumulative[i]` is w₀ + … + wᵢ.
  public let cumulative: [UInt64]

  /// - Precondition: every weight is positive (an `Experiment` guarantees it).
  public init(weights: [Int]) {
    precondition(!weights.isEmpty && weights.allSatisfy { $0 > 0 }, "weights must be positive")
    var total: UInt64 = 0
    cumulative = weights.map { weight in
      total += UInt64(weight)
      return total
    }
  }

  public init(_ experiment: Experiment) {
    self.init(weights: experiment.variants.map(\.weight))
  }

  /// The index of the variant that `bits` select.
  public func select(bits: UInt64) -> Int {
    Self.select(bits: bits, count: cumulative.count) { cumulative[$0] }
  }

  /// The index of the variant that `bits` select among `count` running sums
  /// of weights, read by `runningSum`: the same choice for callers that keep
  /// many experiments' sums in one table of their own.
  @inlinable
  public static func select(bits: UInt64, count: Int, runningSum: (Int) -> UInt64) -> Int {
    let ticket = runningSum(count - 1).multipliedFullWidth(by: bits).high
    var index = 0
    while runningSum(index) <= ticket { index += 1 }
    return index
  }

  /// The index `select` gives among `count` equal weights w, without its
  /// search: the running sums are w, 2w, …, count·w, so the ticket
  /// ⌊count·w·bits / 2⁶⁴⌋ passes ⌊ticket / w⌋ of them, which is
  /// ⌊count·bits / 2⁶⁴⌋ whatever w is.
  @inlinable
  public static func select(bits: UInt64, equalWeights count: Int) -> Int {
    Int(UInt64(count).multipliedFullWidth(by: bits).high)
  }
}
