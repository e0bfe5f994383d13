/// A sum of values kept exactly on a grid of 2^`stepExponent`, for totals
/// that must not depend on the order of addition (expected outcomes and
/// probabilities). Values beyond ±2⁶² steps are clamped to it.
public struct ExactSum: Hashable, Sendable, BitwiseCopyable {
  public let stepExponent: Int
  /// 2^-stepExponent, kept so that adding a value multiplies by a constant.
  @usableFromInline let stepsPerUnit: Double
  @usableFromInline package var steps: Int128 = 0

  /// - Parameter stepExponent: the grid: 2⁻³² by default, for probabilities;
  ///   `Moments.stepExponent(forScale:)` for a metric's expected outcomes.
  public init(stepExponent: Int = -32) {
    self.stepExponent = stepExponent
    stepsPerUnit = Double(sign: .plus, exponent: -stepExponent, significand: 1)
  }

  @inline(__always)
  public mutating func add(_ value: Double) {
    guard let nearest = steps(value) else { return }
    add(steps: nearest)
  }

  /// `value` as a whole number of this sum's steps, `nil` for NaN (which
  /// `add` leaves out).
  @inlinable @inline(__always)
  package func steps(_ value: Double) -> Int64? {
    Moments.nearestSteps(value * stepsPerUnit)
  }

  @inlinable @inline(__always)
  package mutating func add(steps nearest: Int64) {
    steps += Int128(nearest)
  }

  /// Adds `value` `times` times: the same sum as that many calls of `add`,
  /// since each adds the same steps.
  public mutating func add(_ value: Double, times: Int) {
    guard let nearest = steps(value) else { return }
    steps += Int128(nearest) * Int128(times)
  }

  public mutating func merge(_ other: ExactSum) {
    precondition(other.stepExponent == stepExponent, "sums on different grids cannot merge exactly")
    steps += other.steps
  }

  public var value: Double { Double(steps) * Double(sign: .plus, exponent: stepExponent, significand: 1) }
}
