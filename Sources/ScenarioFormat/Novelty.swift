/// A lift that moves after a device first sees an experiment
/// (docs/rules/NoveltyEffects.md): novelty (a new screen draws more at
/// first, then less) or primacy (users used to the old one do worse at
/// first, then adapt). On the t-th day after its first exposure a variant
/// lifts a metric by settled + (initial − settled) × 2^(−t / half-life),
/// where settled is the metric's `lifts` value: the effect a team keeps once
/// the change ships.
public struct Novelty: Hashable, Sendable {
  /// The lift of each variant on the day of a device's first exposure, by
  /// variant name; a variant without one starts where it settles.
  public var initialLifts: [String: Double]
  /// Days for the distance to the settled lift to halve.
  public var halfLifeDays: Double

  public init(initialLifts: [String: Double], halfLifeDays: Double) {
    self.initialLifts = initialLifts
    self.halfLifeDays = halfLifeDays
  }
}
