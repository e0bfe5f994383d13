/// A key two experiments share, and the clashes the assignments manager met
/// on it: launches at which both were active and held the key, so that it
/// served the one first in its merge order and discarded the other's variant.
public struct ConflictResult: Hashable, Sendable {
  public var key: String
  public var experiments: [String]
  /// Devices with at least one clash on the key.
  public var devices: Int
  /// The first and last day of a clash, `nil` when there was none.
  public var firstDay: Int?
  public var lastDay: Int?
  /// The variants served at the clashes, with their devices.
  public var served: [Served]

  /// A variant the manager served at a clash on the key.
  public struct Served: Hashable, Sendable {
    public var experiment: String
    public var variant: String
    public var devices: Int

    public init(experiment: String, variant: String, devices: Int) {
      self.experiment = experiment
      self.variant = variant
      self.devices = devices
    }
  }

  public init(
    key: String,
    experiments: [String],
    devices: Int,
    firstDay: Int? = nil,
    lastDay: Int? = nil,
    served: [Served] = []
  ) {
    self.key = key
    self.experiments = experiments
    self.devices = devices
    self.firstDay = firstDay
    self.lastDay = lastDay
    self.served = served
  }
}
