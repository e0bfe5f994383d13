/// One change on a hash-bucketed service's dashboard and the devices whose
/// configuration it reached: in the experiment before and after, on the same
/// or another variation, or only on one side of it.
public struct ServiceChangeResult: Hashable, Sendable {
  public var day: Int
  /// What changed, e.g. "traffic set to 100%".
  public var change: String
  public var devices: Int
  public var kept: Int
  public var moved: Int
  public var left: Int
  public var entered: Int

  public init(day: Int, change: String, devices: Int, kept: Int, moved: Int, left: Int, entered: Int) {
    self.day = day
    self.change = change
    self.devices = devices
    self.kept = kept
    self.moved = moved
    self.left = left
    self.entered = entered
  }
}
