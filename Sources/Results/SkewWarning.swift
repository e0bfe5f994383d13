/// An amount too skewed for its sample: the normal approximation behind the
/// mean's test and interval needs about c·s² devices where the skewness is s
/// (the form of Kohavi, Tang and Xu's rule, *Trustworthy Online Controlled
/// Experiments*, chapter 17; c measured in docs/statistics.md), and this arm
/// has fewer. The interval may then miss its level and the decision rests on
/// it: both are marked, not withheld.
public struct SkewWarning: Hashable, Sendable {
  /// From about this many times an amount's squared skewness devices an
  /// arm, its lift interval holds its level: the form of Kohavi, Tang and
  /// Xu's rule for a mean (355·s² for a one-sided 10% error), with the factor
  /// measured on this bench's intervals (docs/statistics.md, "Skewed amounts").
  public static let devicesPerSquaredSkewness = 25.0

  /// The arm (the variant or the baseline) furthest below its need.
  public var variant: String
  public var skewness: Double
  public var devices: Int
  /// ⌈c·s²⌉.
  public var needed: Int

  public init(variant: String, skewness: Double, devices: Int, needed: Int) {
    self.variant = variant
    self.skewness = skewness
    self.devices = devices
    self.needed = needed
  }
}
