/// How an upgrade from one version to another left devices in one experiment.
public struct TransitionCounts: Hashable, Sendable {
  /// Active before and after, on the same variant.
  public var kept = 0
  /// Active before and after, on another variant.
  public var reassigned = 0
  /// Active before, not after.
  public var deactivated = 0
  /// Not active before, active after.
  public var activated = 0
  /// Of the activated, devices that had been active in the experiment before
  /// (a version removed it, or it was inactive, and it came back).
  public var returned = 0
  /// Of those, devices whose variant now differs from the one they last had.
  public var returnedOnAnotherVariant = 0

  public init() {}

  /// Devices that were active before or after the upgrade.
  public var total: Int { kept + reassigned + deactivated + activated }
}
