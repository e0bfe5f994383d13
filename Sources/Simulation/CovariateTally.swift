/// A metric's pre-experiment covariate over the devices counted for one
/// variant, with the sum of its products with their outcomes: what a
/// regression adjustment (CUPED) needs beside the outcomes' own moments.
///
/// Like `Moments` it sums integer steps, so that the totals do not depend on
/// the order of addition; a product of two steps takes up to 124 bits, so the
/// products are summed in 256 bits, positive and negative apart.
public struct CovariateTally: Hashable, Sendable, BitwiseCopyable {
  /// The covariates, on a grid for values of unit scale (they are standard normal).
  public internal(set) var covariates = Moments(stepExponent: Moments.stepExponent(forScale: 1))
  /// Σ x·y over products ≥ 0 and the magnitude of Σ x·y over products < 0, in
  /// steps of both grids, each as `high` × 2¹²⁸ + `low`.
  var positiveLow: UInt128 = 0
  var positiveHigh: UInt128 = 0
  var negativeLow: UInt128 = 0
  var negativeHigh: UInt128 = 0

  public init() {}

  /// Counts one device's covariate and its product with `outcome`, a value
  /// of `grid`, the outcomes' own moments.
  public mutating func add(covariate: Double, outcome: Double, grid: Moments) {
    let x = covariates.steps(covariate), y = grid.steps(outcome)
    covariates.add(covariate)
    let product = UInt128(x.magnitude) * UInt128(y.magnitude)
    if (x < 0) != (y < 0), product != 0 {
      Self.add(product, low: &negativeLow, high: &negativeHigh)
    } else {
      Self.add(product, low: &positiveLow, high: &positiveHigh)
    }
  }

  public mutating func merge(_ other: CovariateTally) {
    covariates.merge(other.covariates)
    Self.add(other.positiveLow, low: &positiveLow, high: &positiveHigh)
    positiveHigh += other.positiveHigh
    Self.add(other.negativeLow, low: &negativeLow, high: &negativeHigh)
    negativeHigh += other.negativeHigh
  }

  /// The sample covariance of covariate and outcome (divided by n − 1) over
  /// the same devices as `outcomes`: (n Σxy − Σx Σy) / (n (n − 1)), taken
  /// exactly in 256 bits and rounded once; `nil` below two devices.
  public func covariance(with outcomes: Moments) -> Double? {
    let count = covariates.count
    guard count > 1, outcomes.count == count else { return nil }
    let n = UInt128(count)
    var (largerLow, largerHigh) = Self.scaled(low: positiveLow, high: positiveHigh, by: n)
    var (smallerLow, smallerHigh) = Self.scaled(low: negativeLow, high: negativeHigh, by: n)
    // Σx Σy joins the side opposite its sign.
    let sums = covariates.sum.magnitude.multipliedFullWidth(by: outcomes.sum.magnitude)
    if (covariates.sum < 0) != (outcomes.sum < 0) {
      Self.add(sums.low, low: &largerLow, high: &largerHigh)
      largerHigh += sums.high
    } else {
      Self.add(sums.low, low: &smallerLow, high: &smallerHigh)
      smallerHigh += sums.high
    }
    let negative = (largerHigh, largerLow) < (smallerHigh, smallerLow)
    if negative { swap(&largerLow, &smallerLow); swap(&largerHigh, &smallerHigh) }
    let (differenceLow, borrow) = largerLow.subtractingReportingOverflow(smallerLow)
    let differenceHigh = largerHigh - smallerHigh - (borrow ? 1 : 0)
    let spread = Moments.double(high: differenceHigh, low: differenceLow)
    return (negative ? -spread : spread) / (Double(count) * Double(count - 1)) * covariates.step * outcomes.step
  }

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
