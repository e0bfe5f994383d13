/// What a run found, in the shape of results.json
/// (../shared/contracts/results.md): the report and other tools read this, not
/// the simulation's tallies.
public struct ResultsDocument: Hashable, Sendable {
  public var scenario: String
  /// The seed the run used; `nil` for an events table.
  public var seed: UInt64?
  public var devices: Int
  public var days: Int
  public var replications: Int
  /// Launches over all devices of the first replication.
  public var launches: Int
  /// Devices on which some version called stabilize.
  public var stabilizedDevices: Int
  public var experiments: [ExperimentResult]
  public var conflicts: [ConflictResult]
  /// With several replications: how often the analysis was right.
  public var calibration: Calibration?
  /// How assignments reached devices: stabilization and, with a remote
  /// service, fetches, overrides, fallbacks, enrollment and churn. `nil` for
  /// an events table.
  public var delivery: DeliveryResult?
  /// For an analysed export, each sum metric's events and how many of them
  /// lacked its property; `nil` (and left out of results.json) otherwise.
  public var missingProperties: [MissingPropertyCount]?
  /// The bench that wrote the file, set by the command that writes it; `nil`
  /// (written as null) where no command is involved.
  public var benchVersion: String?

  public init(
    scenario: String,
    seed: UInt64?,
    devices: Int,
    days: Int,
    replications: Int,
    launches: Int,
    stabilizedDevices: Int,
    experiments: [ExperimentResult],
    conflicts: [ConflictResult],
    calibration: Calibration?,
    delivery: DeliveryResult? = nil
  ) {
    self.scenario = scenario
    self.seed = seed
    self.devices = devices
    self.days = days
    self.replications = replications
    self.launches = launches
    self.stabilizedDevices = stabilizedDevices
    self.experiments = experiments
    self.conflicts = conflicts
    self.calibration = calibration
    self.delivery = delivery
  }
}
