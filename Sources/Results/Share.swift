/// How many of a number of replications something happened in, with a
/// binomial (Wilson) interval on the share, since a rate from a few hundred
/// replications is itself an estimate.
public struct Share: Hashable, Sendable {
  public var count: Int
  public var of: Int
  public var lower: Double?
  public var upper: Double?

  public init(count: Int, of: Int, lower: Double?, upper: Double?) {
    self.count = count
    self.of = of
    self.lower = lower
    self.upper = upper
  }

  public var rate: Double { of > 0 ? Double(count) / Double(of) : 0 }
}
