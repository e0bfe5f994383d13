import Lab

/// Everything one device did, for the bench's debug screen: its draws, each
/// launch, its analytics events and its outcomes.
public struct DeviceHistory: DeviceObserver, Sendable {
  public static var isObserving: Bool { true }

  public private(set) var device = 0
  public private(set) var token = ActiveExperimentsToken(bits: 0)
  public private(set) var segment = 0
  /// The day the device installed the app, `nil` for before day 0.
  public private(set) var installDay: Int?
  /// The day each version became installed, `nil` for versions never taken.
  public private(set) var upgradeDays: [Double?] = []
  public private(set) var launches: [LaunchRecord] = []
  public private(set) var outcomes: [Double] = []
  /// The experiments with an enrollment rule active on the device that never
  /// enrolled it (`DeviceObserver.neverEnrolled`).
  public private(set) var neverEnrolled: [Int] = []
  public private(set) var events: EventLog

  public init(plan: SimulationPlan) {
    events = EventLog(plan: plan)
  }

  public mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, installDay: Int?, upgradeDays: [Double?]) {
    self.device = device
    self.token = token
    self.segment = segment
    self.installDay = installDay
    self.upgradeDays = upgradeDays
    events.started(device: device, token: token, segment: segment, installDay: installDay, upgradeDays: upgradeDays)
  }

  public mutating func launched(_ launch: LaunchRecord) {
    launches.append(launch)
    events.launched(launch)
  }

  public mutating func neverEnrolled(_ experiments: [Int]) {
    neverEnrolled = experiments
  }

  public mutating func finished(outcomes: [Double]) {
    self.outcomes = outcomes
    events.finished(outcomes: outcomes)
  }
}
