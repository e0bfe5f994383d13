import _CGSL
import Foundation

/// A sample as its distinct values in ascending order with how often each
/// occurs, for the quantiles of an amount: a run of a million devices keeps
/// a few thousand values, not a million.
///
/// A value may stand for a range of amounts (a histogram's bucket): then the
/// range's edges bound the intervals, so that an interval is never narrower
/// than the data allow, where reading the buckets' midpoints would give a
/// zero-width interval to a spread finer than one bucket.
public struct SortedSample: Hashable, Sendable {
  public let values: [Double]
  public let counts: [Int]
  /// The smallest and the largest amount each value stands for: the value
  /// itself for exact amounts.
  public let lowerEdges: [Double], upperEdges: [Double]
  /// counts[0] + … + counts[i], for finding a rank.
  private let cumulative: [Int]

  /// - Precondition: `values` ascend strictly and pair with positive
  ///   `counts`; each value lies within its edges (by default the value).
  public init(values: [Double], counts: [Int], lowerEdges: [Double]? = nil, upperEdges: [Double]? = nil) {
    precondition(values.count == counts.count && counts.allSatisfy { $0 > 0 }, "one positive count per value")
    precondition(zip(values, values.dropFirst()).allSatisfy { $0 < $1 }, "values ascend strictly")
    self.values = values
    self.counts = counts
    let lower = lowerEdges ?? values, upper = upperEdges ?? values
    precondition(
      lower.count == values.count && upper.count == values.count
        && values.indices.allSatisfy { lower[$0] <= values[$0] && values[$0] <= upper[$0] },
      "each value lies within its edges")
    self.lowerEdges = lower
    self.upperEdges = upper
    var total = 0
    cumulative = counts.map { count in
      total += count
      return total
    }
  }

  public var count: Int { cumulative.last ?? 0 }

  /// The value of rank `rank` from 1 (the smallest) to `count`.
  public func value(atRank rank: Int) -> Double {
    values[index(ofRank: rank)]
  }

  /// The position in `values` of rank `rank`, from 1 to `count`.
  private func index(ofRank rank: Int) -> Int {
    precondition((1...count).contains(rank), "a rank from 1 to the count")
    var low = 0, high = cumulative.count - 1
    while low < high {
      let middle = (low + high) / 2
      if cumulative[middle] >= rank { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The sample quantile as the inverse of the empirical distribution
  /// function: the smallest value with at least a share `q` of the sample at
  /// or below it, the value of rank ⌈n·q⌉ (numpy's "inverted_cdf"). A product
  /// n·q within a relative 10⁻⁹ of a whole number counts as that number, so that 0.9 of
  /// 10 is rank 9 although 10 × 0.9 is 9.000000000000002 in binary. `nil`
  /// for an empty sample.
  public func quantile(_ q: Double) -> Double? {
    precondition(q > 0 && q < 1, "a quantile strictly between 0 and 1")
    guard count > 0 else { return nil }
    let product = Double(count) * q, whole = product.rounded()
    let rank = abs(product - whole) <= 1e-9 * max(1, product) ? whole : product.rounded(.up)
    return value(atRank: min(max(Int(rank), 1), count))
  }

  /// The distribution-free interval for the population's `q` quantile at
  /// `confidence`, from two order statistics: with K ~ Binomial(n, q) and
  /// β = (1 − confidence)/2, the values of rank l, the smallest k with
  /// P(K ≤ k) ≥ β, and u = 1 + the smallest k with P(K > k) ≤ β, the ranks
  /// scipy's `quantile_test` takes. It holds the quantile with probability
  /// of at least `confidence` for any continuous distribution. Where values
  /// stand for ranges, it runs from the lower edge of rank l's range to the
  /// upper edge of rank u's. `nil` where the sample is too small for either
  /// rank (l < 1 or u > n).
  public func interval(_ q: Double, confidence: Double) -> Interval? {
    precondition(q > 0 && q < 1, "a quantile strictly between 0 and 1")
    let n = count
    guard n > 0, n <= Int(UInt32.max) else { return nil }
    let tail = (1 - confidence) / 2, z = twoSidedCriticalValue(confidence)
    let centre = Double(n) * q, spread = (centre * (1 - q)).squareRoot()
    let below = Self.smallest(upTo: n, near: Int((centre - z * spread).rounded(.down))) { k in
      GSL.value { gsl_cdf_binomial_P(UInt32(k), q, UInt32(n)) } >= tail
    }
    let above = Self.smallest(upTo: n, near: Int((centre + z * spread).rounded(.up))) { k in
      GSL.value { gsl_cdf_binomial_Q(UInt32(k), q, UInt32(n)) } <= tail
    }
    let lower = below, upper = above + 1
    guard lower >= 1, upper <= n else { return nil }
    return Interval(lower: lowerEdges[index(ofRank: lower)], upper: upperEdges[index(ofRank: upper)])
  }

  /// The `q` quantile as a normal estimate for comparing groups, with the
  /// variance ((x₍ᵤ₎ − x₍ₗ₎)/(2z))² read off the interval at `confidence`, as
  /// McKean and Schrader (1984) estimate the median's and Price and Bonett
  /// (2002) compare medians: no density needs estimating and no resampling.
  /// `nil` where the interval is.
  public func estimate(_ q: Double, confidence: Double) -> NormalEstimate? {
    guard let value = quantile(q), let interval = interval(q, confidence: confidence) else { return nil }
    let standardError = (interval.upper - interval.lower) / (2 * twoSidedCriticalValue(confidence))
    return NormalEstimate(value: value, variance: standardError * standardError)
  }

  /// The smallest k in 0...n at which `holds`, false below some k and true
  /// from it on, becomes true, searched from `guess` (a normal
  /// approximation, a few steps away for any n).
  private static func smallest(upTo n: Int, near guess: Int, _ holds: (Int) -> Bool) -> Int {
    var k = min(max(guess, 0), n)
    if holds(k) {
      while k > 0, holds(k - 1) { k -= 1 }
    } else {
      while k < n, !holds(k) { k += 1 }
    }
    return k
  }
}
