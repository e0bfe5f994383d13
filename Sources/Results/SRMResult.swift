/// The sample ratio mismatch check of one experiment: the first exposures per
/// variant against the split the configuration should produce.
public struct SRMResult: Hashable, Sendable {
  /// The expected share of each variant, in the experiment's variant order.
  public var expected: [Double]
  public var statistic: Double?
  public var degreesOfFreedom: Double?
  public var pValue: Double?
  /// Whether the p-value is below the threshold: the split is not what the
  /// configuration produces, so the comparison is not trustworthy.
  public var isMismatch: Bool

  public init(expected: [Double], statistic: Double?, degreesOfFreedom: Double?, pValue: Double?, isMismatch: Bool) {
    self.expected = expected
    self.statistic = statistic
    self.degreesOfFreedom = degreesOfFreedom
    self.pValue = pValue
    self.isMismatch = isMismatch
  }
}
