/// One metric over the devices counted for one variant.
public struct MetricTally: Hashable, Sendable, BitwiseCopyable {
  /// The observed outcomes.
  public var outcomes: Moments
  /// Σ outcome³ on the outcomes' grid, for amounts (conversions' skewness
  /// follows from their rate).
  public var cubes = CubeSum()
  /// Devices whose conversion outcome was 1 (conversion metrics only).
  public var conversions = 0
  /// The sum over the devices of their expected outcome had they seen only
  /// this variant: the truth the estimate should recover.
  public var trueMeanSum: ExactSum

  /// - Parameter stepExponent: the metric's grid (`Moments.stepExponent`).
  ///   Expected outcomes never exceed the scale, so the truth is summed on a
  ///   grid 2²⁰ times finer: a double's full precision at the scale.
  public init(stepExponent: Int) {
    outcomes = Moments(stepExponent: stepExponent)
    trueMeanSum = ExactSum(stepExponent: stepExponent - 20)
  }

  public mutating func merge(_ other: MetricTally) {
    outcomes.merge(other.outcomes)
    cubes.merge(other.cubes)
    conversions += other.conversions
    trueMeanSum.merge(other.trueMeanSum)
  }

  /// Counts one device's outcome, and its expected outcome when the truth is known.
  public mutating func add(_ outcome: Double, expected: Double? = nil, isConversion: Bool) {
    add(
      outcomeSteps: outcomes.steps(outcome), expectedSteps: expected.flatMap { trueMeanSum.steps($0) },
      converted: isConversion && outcome == 1, isAmount: !isConversion)
  }

  /// `add(_:expected:isConversion:)` with the outcome and its expectation
  /// already on this tally's grids (`Moments.steps`, `ExactSum.steps`), for a
  /// device the loop counts in several tallies of one metric.
  @inlinable @inline(__always)
  package mutating func add(outcomeSteps: Int64, expectedSteps: Int64?, converted: Bool, isAmount: Bool) {
    outcomes.add(steps: outcomeSteps)
    if isAmount { cubes.add(steps: outcomeSteps) }
    if let expectedSteps { trueMeanSum.add(steps: expectedSteps) }
    if converted { conversions += 1 }
  }

  /// The skewness of an amount's outcomes (`CubeSum.skewness(of:)`), `nil`
  /// below three devices or with no spread. Only amounts add their cubes: a
  /// conversion tally's is not its skewness.
  public var skewness: Double? { cubes.skewness(of: outcomes) }

  /// The mean of the devices' expected outcomes, or `nil` with no devices.
  public var trueMean: Double? {
    outcomes.count > 0 ? trueMeanSum.value / Double(outcomes.count) : nil
  }
}
