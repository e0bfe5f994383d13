/// Σ steps³ of values on a grid, exactly: the positive and the negative
/// cubes' magnitudes each in 256 bits (a cube of up to 2⁶² steps takes 186,
/// and 2³⁰ of them 216), so that shards and batches merge to the same bits in
/// any order. With `Moments` it gives a sample's skewness.
public struct CubeSum: Hashable, Sendable, BitwiseCopyable {
  /// Magnitudes as high × 2¹²⁸ + low.
  @usableFromInline package var positiveLow: UInt128 = 0, positiveHigh: UInt128 = 0
  @usableFromInline package var negativeLow: UInt128 = 0, negativeHigh: UInt128 = 0

  public init() {}

  @inlinable @inline(__always)
  package mutating func add(steps: Int64) {
    let magnitude = UInt128(steps.magnitude)
    let cube = (magnitude * magnitude).multipliedFullWidth(by: magnitude)
    if steps >= 0 {
      Self.accumulate(high: cube.high, low: cube.low, intoHigh: &positiveHigh, low: &positiveLow)
    } else {
      Self.accumulate(high: cube.high, low: cube.low, intoHigh: &negativeHigh, low: &negativeLow)
    }
  }

  public mutating func merge(_ other: CubeSum) {
    Self.accumulate(high: other.positiveHigh, low: other.positiveLow, intoHigh: &positiveHigh, low: &positiveLow)
    Self.accumulate(high: other.negativeHigh, low: other.negativeLow, intoHigh: &negativeHigh, low: &negativeLow)
  }

  @inlinable @inline(__always)
  static func accumulate(high: UInt128, low: UInt128, intoHigh sumHigh: inout UInt128, low sumLow: inout UInt128) {
    let (newLow, carry) = sumLow.addingReportingOverflow(low)
    sumLow = newLow
    sumHigh += high + (carry ? 1 : 0)
  }

  /// Σ steps³, each sign's magnitude rounded once.
  package var value: Double {
    Moments.double(high: positiveHigh, low: positiveLow) - Moments.double(high: negativeHigh, low: negativeLow)
  }

  /// The skewness g₁ = m₃/m₂^(3/2) of the values `moments` counts, with the
  /// central moments divided by n (scipy's `skew`): m₃ = S₃/n − 3x̄·S₂/n + 2x̄³
  /// from the exact sums, m₂ from the exact variance. `nil` below three
  /// values or with no spread.
  package func skewness(of moments: Moments) -> Double? {
    guard moments.count > 2, let variance = moments.sampleVariance, variance > 0 else { return nil }
    let n = Double(moments.count), step = moments.step
    let mean = Double(moments.sum) / n
    let squares = Moments.double(high: moments.squaresHigh, low: moments.squaresLow) / n
    let third = value / n - 3 * mean * squares + 2 * mean * mean * mean
    let secondMoment = variance / (step * step) * (n - 1) / n
    return third / (secondMoment * secondMoment.squareRoot())
  }
}
