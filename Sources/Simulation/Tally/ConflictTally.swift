/// The clashes on one key two experiments share: the launches at which both
/// were active and held the key, so that the manager served the one first in
/// its order and discarded the other.
public struct ConflictTally: Hashable, Sendable {
  /// Devices with at least one clash.
  public var devices = 0
  /// The first and last day a clash happened, `nil` before any.
  public var firstDay: Int?
  public var lastDay: Int?
  /// Devices on which each variant was served at a clash, by the row's first
  /// experiment's variants, then the second's.
  public var served: [Int]

  init(variants: Int) {
    served = Array(repeating: 0, count: variants)
  }
}
