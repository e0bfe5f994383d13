/// The effect a power calculation must detect.
public enum PowerTarget: Hashable, Sendable {
  /// A relative lift over the baseline's rate or mean (0.1 for +10%).
  case lift(Double)
  /// An absolute difference of rates or means: what a baseline of 0 needs,
  /// where every relative lift of it is 0.
  case difference(Double)
}

/// The power calculation for one metric.
public struct PowerSummary: Hashable, Sendable {
  /// Devices per variant needed to detect the target.
  public var requiredPerVariant: Int?
  /// The fewest devices any compared variant has.
  public var smallestVariant: Int
  /// The chance to detect the target at the smallest variant's size.
  public var achieved: Double?
  public var target: PowerTarget

  public init(requiredPerVariant: Int?, smallestVariant: Int, achieved: Double?, target: PowerTarget) {
    self.requiredPerVariant = requiredPerVariant
    self.smallestVariant = smallestVariant
    self.achieved = achieved
    self.target = target
  }
}
