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
  /// Per version: its name, and per slot the experiment's number, the
  /// assignments of each local variant in the order the manager merges them,
  /// and the "displayed" event of each: what every launch would otherwise
  /// rebuild from the plan.
  private let versionNames: [String]
  private let slotExperiments: [[Int]]
  private let slotGlobalOfLocal: [[[Int]]]
  private let slotAssignments: [[[[Assignment]]]]
  private let slotDisplayedEvents: [[[AnalyticsEvent]]]
  private var device = 0
  private var active: [String: Assignment] = [:]
  /// Per experiment, the variants already reported displayed on this device,
  /// as a mask of the plan's variant numbers.
  private var reported: [UInt64]
  /// The last launch's version, decisions and served flags: a launch that
  /// repeats them with no remote experiment serves the same assignments, so
  /// it changes nothing and the merge need not be rebuilt.
  private var lastVersion = -1
  private var lastDecisions: [LocalDecision] = []
  private var lastServed: [Bool] = []
  private var lastHadNoRemote = false

  public init(plan: SimulationPlan) {
    self.plan = plan
    reported = Array(repeating: 0, count: plan.experimentNames.count)
    versionNames = plan.versions.map(\.version.version)
    slotExperiments = plan.versions.map { $0.slots.map(\.experimentID) }
    slotGlobalOfLocal = plan.versions.map { $0.slots.map(\.globalOfLocal) }
    slotAssignments = plan.versions.map { version in
      version.slots.map { slot in
        slot.definition.variants.map {
          ActiveVariant(experiment: slot.definition.name, variant: $0, source: "Local").assignments
        }
      }
    }
    slotDisplayedEvents = plan.versions.map { version in
      version.slots.map { slot in
        let experiment = slot.definition, key = experiment.keys[0]
        return experiment.variants.map { variant in
          AnalyticsEvent(
            assignment: Assignment(
              key: key, value: variant.assignments[key]!, variant: variant.name, experiment: experiment.name,
              source: "Local"),
            reason: .displayed)
        }
      }
    }
  }

  public mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, upgradeDays: [Double?]) {
    self.device = device
    active = [:]
    for index in reported.indices { reported[index] = 0 }
    lastVersion = -1
  }

  public mutating func launched(_ launch: LaunchRecord) {
    let running = versionNames[launch.version]
    let repeatsLast =
      launch.remote.isEmpty && lastHadNoRemote && launch.version == lastVersion
      && launch.decisions == lastDecisions && launch.served == lastServed
    if !repeatsLast {
      // The manager merges only what it serves: a discarded variant's keys stay with the variant served first.
      var current: [String: Assignment] = [:]
      for (index, assignments) in slotAssignments[launch.version].enumerated() where launch.served[index] {
        guard let variant = launch.decisions[index].variant else { continue }
        for assignment in assignments[variant] { current[assignment.key] = assignment }
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
      lastVersion = launch.version
      lastDecisions = launch.decisions
      lastServed = launch.served
      lastHadNoRemote = launch.remote.isEmpty
    }
    for holding in launch.remote where holding.displayed {
      let experiment = plan.experimentNames[holding.experiment], variant = plan.variantNames[holding.experiment][holding.variant]
      guard report(holding.experiment, variant: holding.variant), let key = holding.values.keys.sorted().first else { continue }
      let assignment = Assignment(key: key, value: holding.values[key]!, variant: variant, experiment: experiment, source: "Remote")
      rows.append(Row(device: device, day: launch.day, version: running, event: AnalyticsEvent(assignment: assignment, reason: .displayed)))
    }
    for index in launch.displayed.indices where launch.displayed[index] {
      let local = launch.decisions[index].variant!
      guard report(slotExperiments[launch.version][index], variant: slotGlobalOfLocal[launch.version][index][local])
      else { continue }
      rows.append(
        Row(device: device, day: launch.day, version: running, event: slotDisplayedEvents[launch.version][index][local]))
    }
  }

  /// Marks a variant reported displayed; returns whether it was not yet.
  private mutating func report(_ experiment: Int, variant: Int) -> Bool {
    let bit: UInt64 = 1 << UInt64(variant)
    guard reported[experiment] & bit == 0 else { return false }
    reported[experiment] |= bit
    return true
  }

  public mutating func finished(outcomes: [Double]) {
    self.outcomes.append((device, outcomes))
  }

  /// Forgets the rows and outcomes recorded so far, once they are written out.
  public mutating func removeAll() {
    rows.removeAll(keepingCapacity: true)
    outcomes.removeAll(keepingCapacity: true)
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
