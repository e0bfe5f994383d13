/// A value with its confidence interval.
public struct Estimate: Hashable, Sendable {
  public var value: Double
  public var lower: Double
  public var upper: Double

  public init(value: Double, lower: Double, upper: Double) {
    self.value = value
    self.lower = lower
    self.upper = upper
  }
}
