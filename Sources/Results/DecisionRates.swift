/// What an experiment's one decision did over replications of a plan,
/// judged against the truth: the first five shares partition the
/// replications; `wrongSign` counts those that shipped a variant whose true
/// lift on the metric it won on is below 0.
public struct DecisionRates: Hashable, Sendable {
  /// Shipped a variant that truly beats the baseline on some success metric
  /// and truly loses less than each guardrail's margin.
  public var rightShip: Share
  /// Shipped a variant that does not.
  public var wrongShip: Share
  public var keepBaseline: Share
  public var keepRunning: Share
  /// "Do not trust".
  public var withheld: Share
  public var wrongSign: Share
  /// The mean over the replications of the devices per variant with which
  /// the decision ships a variant of the planned effect with the target
  /// power; `nil` where no replication could compute it.
  public var devicesPerVariant: Int?
  /// The mean over the replications of the fewest devices the baseline or a
  /// remaining variant counted: what the plan gives the decision.
  public var smallestArm: Int
  /// Whether the truth is known, so that right and wrong can be told apart.
  public var knowsTruth: Bool

  public init(
    rightShip: Share, wrongShip: Share, keepBaseline: Share, keepRunning: Share, withheld: Share, wrongSign: Share,
    devicesPerVariant: Int?, smallestArm: Int, knowsTruth: Bool
  ) {
    self.rightShip = rightShip
    self.wrongShip = wrongShip
    self.keepBaseline = keepBaseline
    self.keepRunning = keepRunning
    self.withheld = withheld
    self.wrongSign = wrongSign
    self.devicesPerVariant = devicesPerVariant
    self.smallestArm = smallestArm
    self.knowsTruth = knowsTruth
  }
}
