/// The sum of products of two values over devices, kept exactly: the
/// covariance of two sums of `Moments` needs it (a metric's outcome with its
/// covariate, or a ratio's numerator with its denominator).
///
/// Each product of two grid steps takes up to 124 bits, so the products are
/// summed in 256 bits, positive and negative apart, and the totals do not
/// depend on the order of addition.
public struct CrossProducts: Hashable, Sendable, BitwiseCopyable {
  /// Σ x·y over products ≥ 0 and the magnitude of Σ x·y over products < 0, in
  /// steps of both grids, each as `high` × 2¹²⁸ + `low`.
  package var positiveLow: UInt128 = 0
  package var positiveHigh: UInt128 = 0
  package var negativeLow: UInt128 = 0
  package var negativeHigh: UInt128 = 0

  public init() {}

  /// Adds the product of `x` on the grid of `xGrid` and `y` on that of `yGrid`.
  @inline(__always)
  public mutating func add(_ x: Double, on xGrid: Moments, times y: Double, on yGrid: Moments) {
    let xSteps = xGrid.steps(x), ySteps = yGrid.steps(y)
    let product = UInt128(xSteps.magnitude) * UInt128(ySteps.magnitude)
    if (xSteps < 0) != (ySteps < 0), product != 0 {
      Self.add(product, low: &negativeLow, high: &negativeHigh)
    } else {
      Self.add(product, low: &positiveLow, high: &positiveHigh)
    }
  }

  public mutating func merge(_ other: CrossProducts) {
    Self.add(other.positiveLow, low: &positiveLow, high: &positiveHigh)
    positiveHigh += other.positiveHigh
    Self.add(other.negativeLow, low: &negativeLow, high: &negativeHigh)
    negativeHigh += other.negativeHigh
  }

  /// The sample covariance (divided by n − 1) of the two values whose own
  /// sums are `x` and `y`, over the same devices: (n Σxy − Σx Σy) / (n (n − 1)),
  /// taken exactly in 256 bits and rounded once; `nil` below two devices or
  /// when the counts differ.
  public func covariance(x: Moments, y: Moments) -> Double? {
    let count = x.count
    guard count > 1, y.count == count else { return nil }
    let n = UInt128(count)
    var (largerLow, largerHigh) = Self.scaled(low: positiveLow, high: positiveHigh, by: n)
    var (smallerLow, smallerHigh) = Self.scaled(low: negativeLow, high: negativeHigh, by: n)
    // Σx Σy joins the side opposite its sign.
    let sums = x.sum.magnitude.multipliedFullWidth(by: y.sum.magnitude)
    if (x.sum < 0) != (y.sum < 0) {
      Self.add(sums.low, low: &largerLow, high: &largerHigh)
      largerHigh += sums.high
    } else {
      Self.add(sums.low, low: &smallerLow, high: &smallerHigh)
      smallerHigh += sums.high
    }
    let negative = (largerHigh, largerLow) < (smallerHigh, smallerLow)
    if negative {
      swap(&largerLow, &smallerLow)
      swap(&largerHigh, &smallerHigh)
    }
    let (differenceLow, borrow) = largerLow.subtractingReportingOverflow(smallerLow)
    let differenceHigh = largerHigh - smallerHigh - (borrow ? 1 : 0)
    let spread = Moments.double(high: differenceHigh, low: differenceLow)
    return (negative ? -spread : spread) / (Double(count) * Double(count - 1)) * x.step * y.step
  }

  @inline(__always)
  private static func add(_ value: UInt128, low: inout UInt128, high: inout UInt128) {
    let (sum, carry) = low.addingReportingOverflow(value)
    low = sum
    if carry { high += 1 }
  }

  /// `high` × 2¹²⁸ + `low` times `n`: n × low spills into the high word; n ×
  /// high fits, since a sum of at most 2⁶³ products of 124 bits is below 2¹⁸⁷.
  private static func scaled(low: UInt128, high: UInt128, by n: UInt128) -> (low: UInt128, high: UInt128) {
    let product = n.multipliedFullWidth(by: low)
    return (product.low, product.high + n * high)
  }
}
