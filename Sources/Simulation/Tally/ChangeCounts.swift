/// How one change on a service's dashboard left the devices it reached in one
/// experiment, comparing each device's launch before the change with its
/// first launch with it.
public struct ChangeCounts: Hashable, Sendable {
  /// Devices that launched before and after the change (with the new configuration).
  public var devices = 0
  /// In a variation before and after, the same one.
  public var kept = 0
  /// In a variation before and after, another one.
  public var moved = 0
  /// In a variation before, in none after.
  public var left = 0
  /// In none before, in a variation after.
  public var entered = 0
  /// Of the kept (a remote experiment's), devices whose values changed: they
  /// took the revision's new values.
  public var tookValues = 0
  /// Of those, stabilized devices, which take new values only through an override.
  public var overridden = 0
  /// Of the kept, stabilized devices that held on to values the revision
  /// replaced for their variant: stabilization keeps them from the change.
  public var keptOldValues = 0

  public init() {}

  /// Counts one device that was in `before` and is in `after` (-1: none).
  mutating func count(before: Int, after: Int) {
    devices += 1
    switch (before >= 0, after >= 0) {
    case (true, true): before == after ? (kept += 1) : (moved += 1)
    case (true, false): left += 1
    case (false, true): entered += 1
    case (false, false): break
    }
  }
}
