/// A test's name, statistic, degrees of freedom and p-value.
public struct TestSummary: Hashable, Sendable {
  public var test: String
  public var statistic: Double?
  public var degreesOfFreedom: Double?
  public var pValue: Double?

  public init(test: String, statistic: Double?, degreesOfFreedom: Double?, pValue: Double?) {
    self.test = test
    self.statistic = statistic
    self.degreesOfFreedom = degreesOfFreedom
    self.pValue = pValue
  }
}
