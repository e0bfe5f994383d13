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
  /// For a remote experiment, what the change did to the values of the
  /// devices that kept their variant; nil for the hash-bucketed service's,
  /// whose variations carry no values.
  public var values: Values?

  /// The kept devices' values across a remote change, in devices: a value
  /// change reaches a stabilized device only through an override.
  public struct Values: Hashable, Sendable {
    /// Devices that took the revision's new values.
    public var took: Int
    /// Of those, stabilized devices an override reached.
    public var overridden: Int
    /// Stabilized devices that kept values the revision replaced.
    public var keptOld: Int

    public init(took: Int, overridden: Int, keptOld: Int) {
      self.took = took
      self.overridden = overridden
      self.keptOld = keptOld
    }
  }

  public init(day: Int, change: String, devices: Int, kept: Int, moved: Int, left: Int, entered: Int, values: Values? = nil) {
    self.day = day
    self.change = change
    self.devices = devices
    self.kept = kept
    self.moved = moved
    self.left = left
    self.entered = entered
    self.values = values
  }
}
