/// A metric's amounts over devices, counted by size for their quantiles:
/// each amount's whole number of grid steps (`Moments`) falls in a bucket
/// 1/128 of a power of two wide (below 128 steps, one bucket per step), so
/// shards and replications merge by adding counts, in any order, and a
/// bucket's midpoint stands within 2⁻⁸ of every amount in it.
///
/// 7,169 buckets cover every amount a grid holds (up to 2⁶² steps, the last
/// bucket holding 2⁶² alone); a run keeps one histogram per variant and
/// metric with quantiles or winsorization, about 57 KB, and for a winsorized
/// metric each bucket's exact `Moments` too, about 570 KB more.
public struct AmountHistogram: Hashable, Sendable {
  /// Buckets per power of two, and the number of small steps counted exactly.
  package static let subBuckets = 128
  /// log₂ of `subBuckets`.
  package static let subBucketBits = 7
  public static let bucketCount = subBuckets + (62 - subBucketBits) * subBuckets + 1

  /// The grid's step is 2^stepExponent, as the metric's `Moments`.
  public let stepExponent: Int
  public package(set) var counts: [Int]
  /// Per bucket, the exact moments of its amounts, kept for a winsorized
  /// metric: capped at the top of a bucket, every amount in or below it is
  /// unchanged and every amount above it is the cap, so the capped moments
  /// are exact sums of these. Empty for a metric with quantiles only.
  public package(set) var moments: [Moments]

  /// - Parameter keepsMoments: whether to keep each bucket's moments, which
  ///   `winsorized(atSteps:)` needs.
  public init(stepExponent: Int, keepsMoments: Bool = false) {
    self.stepExponent = stepExponent
    counts = Array(repeating: 0, count: Self.bucketCount)
    moments = keepsMoments ? Array(repeating: Moments(stepExponent: stepExponent), count: Self.bucketCount) : []
  }

  /// The bucket of an amount of `steps` grid steps; a negative amount (none
  /// is drawn) counts as 0.
  @inline(__always)
  package static func bucket(steps: Int64) -> Int {
    guard steps >= Int64(subBuckets) else { return Int(max(steps, 0)) }
    let exponent = 63 - steps.leadingZeroBitCount
    let shift = exponent - subBucketBits
    return shift * subBuckets + Int(steps >> shift)
  }

  /// The amount, in steps, that bucket `index` stands for: the step itself
  /// below 128, else the midpoint of the steps the bucket holds.
  package static func representative(_ index: Int) -> Double {
    guard index >= subBuckets else { return Double(index) }
    let shift = index / subBuckets - 1, mantissa = index % subBuckets + subBuckets
    let lowest = Int64(mantissa) << shift, width = Int64(1) << shift
    return Double(lowest) + Double(width - 1) / 2
  }

  /// The smallest amount, in steps, that bucket `index` holds.
  package static func bottom(_ index: Int) -> Int64 {
    guard index >= subBuckets else { return Int64(index) }
    let shift = index / subBuckets - 1, mantissa = index % subBuckets + subBuckets
    return Int64(mantissa) << shift
  }

  /// The largest amount, in steps, that bucket `index` holds.
  package static func top(_ index: Int) -> Int64 {
    guard index >= subBuckets else { return Int64(index) }
    let shift = index / subBuckets - 1, mantissa = index % subBuckets + subBuckets
    return (Int64(mantissa) << shift) + (Int64(1) << shift) - 1
  }

  /// Counts one amount.
  @inline(__always)
  package mutating func add(steps: Int64) {
    let bucket = Self.bucket(steps: steps)
    counts[bucket] += 1
    if !moments.isEmpty { moments[bucket].add(steps: steps) }
  }

  package mutating func merge(_ other: AmountHistogram) {
    precondition(other.stepExponent == stepExponent, "histograms on different grids cannot merge")
    for index in counts.indices { counts[index] += other.counts[index] }
    for index in moments.indices { moments[index].merge(other.moments[index]) }
  }

  /// The rank, from 1, of the `percentile` of `total` amounts: ⌈total·p⌉
  /// (scipy's "inverted_cdf"), a product within a relative 10⁻⁹ of a whole
  /// number counting as that number (0.99 × 10,000 is rank 9,900), as in
  /// `SortedSample.quantile`.
  public static func rank(percentile: Double, of total: Int) -> Int {
    let position = percentile * Double(total), whole = position.rounded()
    return max(1, abs(position - whole) <= 1e-9 * max(1, position) ? Int(whole) : Int(position.rounded(.up)))
  }

  /// The cap, in steps, for winsorizing at `percentile` the amounts of
  /// `histograms` together (an experiment's variants): the top of the bucket
  /// holding their pooled percentile, the smallest amount with at least that
  /// share of amounts at or below it (scipy's "inverted_cdf"). It stands at
  /// most 1/128 above the percentile, and exactly on it below 128 steps.
  /// `nil` with no amounts.
  public static func cap(percentile: Double, of histograms: [AmountHistogram]) -> Int64? {
    let total = histograms.reduce(0) { $0 + $1.counts.reduce(0, +) }
    guard total > 0 else { return nil }
    let rank = Self.rank(percentile: percentile, of: total)
    var seen = 0
    for bucket in 0..<bucketCount {
      seen += histograms.reduce(0) { $0 + $1.counts[bucket] }
      if seen >= rank { return top(bucket) }
    }
    return top(bucketCount - 1)
  }

  /// The moments of the amounts with every amount above `cap` steps counted
  /// as `cap`, and how many were capped. Exact, for a cap at a bucket's top
  /// (`cap(percentile:of:)`) on a histogram that keeps its moments.
  public func winsorized(atSteps cap: Int64) -> (moments: Moments, capped: Int) {
    let last = Self.bucket(steps: cap)
    precondition(!moments.isEmpty && Self.top(last) == cap, "winsorizing needs each bucket's moments and a cap at a bucket's top")
    var capped = Moments(stepExponent: stepExponent)
    for bucket in 0...last { capped.merge(moments[bucket]) }
    let above = counts[(last + 1)...].reduce(0, +)
    capped.add(steps: cap, times: above)
    return (capped, above)
  }

  /// The amounts counted, as the distinct values their buckets stand for in
  /// ascending order, with how many devices each holds and the smallest and
  /// largest amount each bucket holds.
  public var distribution: (values: [Double], counts: [Int], lowerEdges: [Double], upperEdges: [Double]) {
    let step = Double(sign: .plus, exponent: stepExponent, significand: 1)
    let occupied = counts.indices.filter { counts[$0] > 0 }
    return (
      occupied.map { Self.representative($0) * step }, occupied.map { counts[$0] },
      occupied.map { Double(Self.bottom($0)) * step }, occupied.map { Double(Self.top($0)) * step }
    )
  }
}
