/// The count, sum and sum of squares of a stream of values, kept as exact
/// integers on a grid of 2^`stepExponent`, so that adding values in any order
/// or grouping gives the same bits: batch and shard results merge to the same
/// totals however the devices are split.
///
/// Each value becomes a whole number of steps that fits in 63 bits (a value
/// beyond ±2⁶² steps is clamped to it), the sum is a 128-bit integer and the
/// sum of squares a 256-bit one, so no count of values a run can make
/// overflows either. A metric picks the grid from its scale
/// (`stepExponent(forScale:)`), so that a revenue in a minor currency unit
/// and a mean of 10⁻⁷ are both held to 2⁻³² of their scale.
public struct Moments: Hashable, Sendable, BitwiseCopyable {
  /// The grid's step is 2^stepExponent.
  public let stepExponent: Int
  /// 2^-stepExponent, kept so that adding a value multiplies by a constant.
  @usableFromInline let stepsPerUnit: Double
  /// The number of values, stored apart from `count` so that the device
  /// loop's `add(steps:)` can be inlined into it from another module.
  @usableFromInline package var valueCount = 0
  @usableFromInline package var sum: Int128 = 0
  /// Σ steps², as `high` × 2¹²⁸ + `low`.
  @usableFromInline package var squaresLow: UInt128 = 0
  @usableFromInline package var squaresHigh: UInt128 = 0

  /// The largest number of steps a value takes: ±2⁶².
  @inlinable package static var largestSteps: Double { 0x1p62 }

  /// - Parameter stepExponent: the grid's step is 2^stepExponent; see
  ///   `stepExponent(forScale:)`.
  public init(stepExponent: Int = -32) {
    self.stepExponent = stepExponent
    stepsPerUnit = Double(sign: .plus, exponent: -stepExponent, significand: 1)
  }

  /// The grid for values whose mean is at most `scale`: steps of 2⁻³² of the
  /// scale's power of two, which holds values up to 2³⁰ times the scale.
  public static func stepExponent(forScale scale: Double) -> Int {
    (scale.isFinite && scale > 0 ? Int(scale.exponent) + 1 : 0) - 32
  }

  /// The grid for given values whose magnitude is at most `largest`: the
  /// finest on which the largest still fits.
  public static func stepExponent(forLargest largest: Double) -> Int {
    (largest.isFinite && largest > 0 ? Int(largest.exponent) + 1 : 0) - 62
  }

  /// The grid's step.
  public var step: Double { Double(sign: .plus, exponent: stepExponent, significand: 1) }

  /// `value` rounded to the nearest point of the grid (clamped to ±2⁶² steps).
  public func quantize(_ value: Double) -> Double {
    Double(steps(value)) * step
  }

  @inlinable @inline(__always)
  package func steps(_ value: Double) -> Int64 {
    Self.nearestSteps(value * stepsPerUnit) ?? 0
  }

  /// `scaled` rounded half away from zero, as `rounded()` does, and clamped
  /// to ±2⁶² steps; `nil` for NaN. The rounding is done on the integer part,
  /// without libm's `round`, which the device loop called for every outcome:
  /// below 2⁵² the fraction `scaled − trunc(scaled)` is exact, and above it
  /// every double is already whole.
  @inlinable @inline(__always)
  package static func nearestSteps(_ scaled: Double) -> Int64? {
    guard scaled == scaled else { return nil }
    let clamped = min(max(scaled, -largestSteps), largestSteps)
    let whole = Int64(clamped)
    let fraction = clamped - Double(whole)
    return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
  }

  @inline(__always)
  public mutating func add(_ value: Double) {
    add(steps: steps(value))
  }

  /// Adds a value already on the grid, as a whole number of steps.
  @inlinable @inline(__always)
  package mutating func add(steps: Int64) {
    let square = UInt128(steps.magnitude) * UInt128(steps.magnitude)
    valueCount += 1
    sum += Int128(steps)
    let (low, carry) = squaresLow.addingReportingOverflow(square)
    squaresLow = low
    if carry { squaresHigh += 1 }
  }

  /// Adds the same value `times` times, exactly as so many `add(steps:)`.
  package mutating func add(steps: Int64, times: Int) {
    guard times > 0 else { return }
    let square = UInt128(steps.magnitude) * UInt128(steps.magnitude)
    valueCount += times
    sum += Int128(steps) * Int128(times)
    let product = square.multipliedFullWidth(by: UInt128(times))
    let (low, carry) = squaresLow.addingReportingOverflow(product.low)
    squaresLow = low
    squaresHigh += product.high + (carry ? 1 : 0)
  }

  public mutating func merge(_ other: Moments) {
    precondition(other.stepExponent == stepExponent, "moments on different grids cannot merge exactly")
    valueCount += other.valueCount
    sum += other.sum
    let (low, carry) = squaresLow.addingReportingOverflow(other.squaresLow)
    squaresLow = low
    squaresHigh += other.squaresHigh + (carry ? 1 : 0)
  }

  /// The number of values added.
  public var count: Int { valueCount }

  /// The mean, or `nil` with no values.
  public var mean: Double? {
    count > 0 ? Double(sum) / Double(count) * step : nil
  }

  /// The sample variance (divided by n − 1), or `nil` below two values:
  /// (n Σx² − (Σx)²) / (n (n − 1)), with the difference taken exactly in 256
  /// bits, so a constant stream has variance 0 exactly.
  public var sampleVariance: Double? {
    guard count > 1 else { return nil }
    let n = UInt128(count)
    // n Σx²: n × low spills into the high word; n × high fits, since Σx² < 2¹⁸⁹.
    let lowProduct = n.multipliedFullWidth(by: squaresLow)
    let scaledHigh = lowProduct.high + n * squaresHigh
    let scaledLow = lowProduct.low
    let square = sum.magnitude.multipliedFullWidth(by: sum.magnitude)
    let (differenceLow, borrow) = scaledLow.subtractingReportingOverflow(square.low)
    let differenceHigh = scaledHigh - square.high - (borrow ? 1 : 0)
    let spread = Self.double(high: differenceHigh, low: differenceLow)
    return spread / (Double(count) * Double(count - 1)) * step * step
  }

  /// `high` × 2¹²⁸ + `low`, rounded once, so that the same amount on two grids
  /// gives the same variance.
  package static func double(high: UInt128, low: UInt128) -> Double {
    guard high != 0 else { return Double(low) }
    let shift = 128 - high.leadingZeroBitCount
    let lost = low & ((1 << UInt128(shift)) - 1)
    let top = high << UInt128(128 - shift) | low >> UInt128(shift) | (lost != 0 ? 1 : 0)
    return Double(top) * Double(sign: .plus, exponent: shift, significand: 1)
  }
}
