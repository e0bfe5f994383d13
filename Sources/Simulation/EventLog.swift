import Lab

/// Records the analytics events an app running Lab would send, device by
/// device: `activated` and `deactivated` as the assignments manager reports
/// them (`AnalyticsEvent.changes`), and `displayed` once per device, experiment
/// and variant, as the Lab doc advises.
public struct EventLog: DeviceObserver, Sendable {
  /// One event of one device on one day.
  public struct Row: Hashable, Sendable {
    public let device: Int
    public let day: Int
    /// The app version the device ran when it sent the event.
    public let version: String
    public let event: AnalyticsEvent
  }

  public static var isObserving: Bool { true }

  public private(set) var rows: [Row] = []
  /// Each device's outcomes, in the scenario's metric order, by device.
  public private(set) var outcomes: [(device: Int, values: [Double])] = []
  private let plan: SimulationPlan
  private var device = 0
  private var active: [String: Assignment] = [:]
  private var reported: Set<String> = []

  public init(plan: SimulationPlan) {
    self.plan = plan
  }

  public mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, upgradeDays: [Double?]) {
    self.device = device
    active = [:]
    reported = []
  }

  public mutating func launched(_ launch: LaunchRecord) {
    // The manager merges only what it serves: a discarded variant's keys stay with the variant served first.
    let version = plan.versions[launch.version]
    let running = version.version.version
    var current: [String: Assignment] = [:]
    for (index, slot) in version.slots.enumerated() where launch.served[index] {
      guard let variant = launch.decisions[index].variant else { continue }
      let experiment = slot.definition
      for assignment in ActiveVariant(experiment: experiment.name, variant: experiment.variants[variant], source: "Local").assignments {
        current[assignment.key] = assignment
      }
    }
    for holding in launch.remote where holding.served {
      let variant = Variant(name: plan.variantNames[holding.experiment][holding.variant], assignments: holding.values)
      for assignment in ActiveVariant(experiment: plan.experimentNames[holding.experiment], variant: variant, source: "Remote").assignments {
        current[assignment.key] = assignment
      }
    }
    for event in AnalyticsEvent.changes(from: active, to: current) {
      rows.append(Row(device: device, day: launch.day, version: running, event: event))
    }
    active = current
    for holding in launch.remote where holding.displayed {
      let experiment = plan.experimentNames[holding.experiment], variant = plan.variantNames[holding.experiment][holding.variant]
      guard reported.insert("\(experiment)\u{1F}\(variant)").inserted, let key = holding.values.keys.sorted().first else { continue }
      let assignment = Assignment(key: key, value: holding.values[key]!, variant: variant, experiment: experiment, source: "Remote")
      rows.append(Row(device: device, day: launch.day, version: running, event: AnalyticsEvent(assignment: assignment, reason: .displayed)))
    }
    for (index, slot) in version.slots.enumerated() where launch.displayed[index] {
      let experiment = slot.definition
      let variant = experiment.variants[launch.decisions[index].variant!]
      guard reported.insert("\(experiment.name)\u{1F}\(variant.name)").inserted else { continue }
      let key = experiment.keys[0]
      let assignment = Assignment(
        key: key, value: variant.assignments[key]!, variant: variant.name, experiment: experiment.name, source: "Local")
      rows.append(Row(device: device, day: launch.day, version: running, event: AnalyticsEvent(assignment: assignment, reason: .displayed)))
    }
  }

  public mutating func finished(outcomes: [Double]) {
    self.outcomes.append((device, outcomes))
  }
}

/// Everything one device did, for the bench's debug screen: its draws, each
/// launch, its analytics events and its outcomes.
public struct DeviceHistory: DeviceObserver, Sendable {
  public static var isObserving: Bool { true }

  public private(set) var device = 0
  public private(set) var token = ActiveExperimentsToken(bits: 0)
  public private(set) var segment = 0
  /// The day each version became installed, `nil` for versions never taken.
  public private(set) var upgradeDays: [Double?] = []
  public private(set) var launches: [LaunchRecord] = []
  public private(set) var outcomes: [Double] = []
  public private(set) var events: EventLog

  public init(plan: SimulationPlan) {
    events = EventLog(plan: plan)
  }

  public mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, upgradeDays: [Double?]) {
    self.device = device
    self.token = token
    self.segment = segment
    self.upgradeDays = upgradeDays
    events.started(device: device, token: token, segment: segment, upgradeDays: upgradeDays)
  }

  public mutating func launched(_ launch: LaunchRecord) {
    launches.append(launch)
    events.launched(launch)
  }

  public mutating func finished(outcomes: [Double]) {
    self.outcomes = outcomes
    events.finished(outcomes: outcomes)
  }
}
