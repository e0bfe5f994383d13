/// A metric's amounts over devices, counted by size for their quantiles:
/// each amount's whole number of grid steps (`Moments`) falls in a bucket
/// 1/128 of a power of two wide (below 128 steps, one bucket per step), so
/// shards and replications merge by adding counts, in any order, and a
/// bucket's midpoint stands within 2⁻⁸ of every amount in it.
///
/// 7,169 buckets cover every amount a grid holds (up to 2⁶² steps, the last
/// bucket holding 2⁶² alone); a run keeps one histogram per variant and
/// metric with quantiles, about 57 KB.
public struct AmountHistogram: Hashable, Sendable {
  /// Buckets per power of two, and the number of small steps counted exactly.
  static let subBuckets = 128
  /// log₂ of `subBuckets`.
  static let subBucketBits = 7
  public static let bucketCount = subBuckets + (62 - subBucketBits) * subBuckets + 1

  /// The grid's step is 2^stepExponent, as the metric's `Moments`.
  public let stepExponent: Int
  public internal(set) var counts: [Int]

  public init(stepExponent: Int) {
    self.stepExponent = stepExponent
    counts = Array(repeating: 0, count: Self.bucketCount)
  }

  /// The bucket of an amount of `steps` grid steps; a negative amount (none
  /// is drawn) counts as 0.
  @inline(__always)
  static func bucket(steps: Int64) -> Int {
    guard steps >= Int64(subBuckets) else { return Int(max(steps, 0)) }
    let exponent = 63 - steps.leadingZeroBitCount
    let shift = exponent - subBucketBits
    return shift * subBuckets + Int(steps >> shift)
  }

  /// The amount, in steps, that bucket `index` stands for: the step itself
  /// below 128, else the midpoint of the steps the bucket holds.
  static func representative(_ index: Int) -> Double {
    guard index >= subBuckets else { return Double(index) }
    let shift = index / subBuckets - 1, mantissa = index % subBuckets + subBuckets
    let lowest = Int64(mantissa) << shift, width = Int64(1) << shift
    return Double(lowest) + Double(width - 1) / 2
  }

  /// Counts one amount.
  @inline(__always)
  mutating func add(steps: Int64) {
    counts[Self.bucket(steps: steps)] += 1
  }

  mutating func merge(_ other: AmountHistogram) {
    precondition(other.stepExponent == stepExponent, "histograms on different grids cannot merge")
    for index in counts.indices { counts[index] += other.counts[index] }
  }

  /// The amounts counted, as the distinct values their buckets stand for in
  /// ascending order, with how many devices each holds.
  public var distribution: (values: [Double], counts: [Int]) {
    let step = Double(sign: .plus, exponent: stepExponent, significand: 1)
    let occupied = counts.indices.filter { counts[$0] > 0 }
    return (occupied.map { Self.representative($0) * step }, occupied.map { counts[$0] })
  }
}
