/// Devices upgrading from one version to another, and what it did to one experiment.
public struct TransitionResult: Hashable, Sendable {
  public var fromVersion: String
  public var toVersion: String
  /// Devices that made this upgrade between two launches.
  public var devices: Int
  public var kept: Int
  public var reassigned: Int
  public var deactivated: Int
  public var activated: Int
  /// Of the activated, devices that had been active before, and of those the
  /// ones now on another variant.
  public var returned: Int
  public var returnedOnAnotherVariant: Int

  public init(
    fromVersion: String,
    toVersion: String,
    devices: Int,
    kept: Int,
    reassigned: Int,
    deactivated: Int,
    activated: Int,
    returned: Int,
    returnedOnAnotherVariant: Int
  ) {
    self.fromVersion = fromVersion
    self.toVersion = toVersion
    self.devices = devices
    self.kept = kept
    self.reassigned = reassigned
    self.deactivated = deactivated
    self.activated = activated
    self.returned = returned
    self.returnedOnAnotherVariant = returnedOnAnotherVariant
  }
}

extension TransitionResult {
  /// The upgrading devices that held the experiment on one side at least:
  /// kept, reassigned, deactivated or activated.
  public var total: Int { kept + reassigned + deactivated + activated }
}
