import Lab

/// Records the analytics events an app running Lab would send, device by
/// device: `activated` and `deactivated` as the assignments manager reports
/// them (`AnalyticsEvent.changes`), and `displayed` once per device, experiment
/// and variant, as the Lab doc advises. An experiment of the hash-bucketed
/// service is reported as its SDK reports it to analytics when the app is
/// shown its decision (Optimizely's impression, GrowthBook's tracking
/// callback): a `displayed` row whose source is the framework, without a
/// key or value, once per device and variant too.
///
/// An export writes millions of events, so the log keeps each as a few
/// numbers (`Record`): every distinct assignment is numbered once, and the
/// manager's merge is kept by key number, in arrays reused from launch to
/// launch. `rows` spells the records out as events.
public struct EventLog: DeviceObserver, Sendable {
  /// One event of one device on one day.
  public struct Row: Hashable, Sendable {
    public let device: Int
    public let day: Int
    /// The app version the device ran when it sent the event.
    public let version: String
    public let event: AnalyticsEvent
  }

  /// One event as numbers: the version's number in the scenario, and the
  /// event's number (`event(_:)`).
  public struct Record: Hashable, Sendable {
    public let device: Int
    public let day: Int
    public let version: Int
    public let event: Int
  }

  public static var isObserving: Bool { true }

  /// The reasons of an event's number, by `event % 3`, and their indexes.
  private static let reasons: [AnalyticsEvent.Reason] = [.activated, .deactivated, .displayed]
  private static let activated = 0, deactivated = 1, displayed = 2

  public private(set) var records: [Record] = []
  /// Each device's outcomes, in the scenario's metric order, by device.
  public private(set) var outcomes: [(device: Int, values: [Double])] = []
  private let plan: SimulationPlan
  public let versionNames: [String]
  /// The source column of the service's experiments: its framework's name.
  private let serviceSource: String

  private var numbering: Numbering

  /// The plan's slots (one experiment in one version) in one flat list,
  /// version `v`'s from `slotStart[v]`, each with its experiment's number;
  /// their local variants in another, slot `s`'s from `slotVariantStart[s]`,
  /// each with the plan's variant number, the number of its "displayed"
  /// event, and its assignments' numbers in the order the manager merges
  /// them, from `variantAssignmentStart`.
  private let slotStart: [Int]
  private let slotExperiment: [Int]
  private let slotVariantStart: [Int]
  private let variantGlobal: [Int]
  private let variantDisplayedEvent: [Int]
  private let variantAssignmentStart: [Int]
  private let variantAssignments: [Int]

  private var device = 0
  /// The manager's active assignments by key number (−1 for none), and the
  /// keys that hold one, sorted; `merged` and `mergedKeys` are the same for
  /// the launch being recorded, before it replaces them.
  private var active: [Int]
  private var activeKeys: SortedKeys
  private var merged: [Int]
  private var mergedKeys: SortedKeys
  /// Per experiment, the variants already reported displayed on this device,
  /// as a mask of the plan's variant numbers.
  private var reported: [UInt64]

  public init(plan: SimulationPlan) {
    self.plan = plan
    reported = Array(repeating: 0, count: plan.experimentNames.count)
    versionNames = plan.versions.map(\.version.version)
    serviceSource = plan.scenario.service?.framework.vendorName ?? "Service"
    var numbering = Numbering(plan: plan)
    active = Array(repeating: -1, count: numbering.keyCount)
    merged = active
    activeKeys = SortedKeys(capacity: numbering.keyCount)
    mergedKeys = activeKeys
    var slotStart = [0], slotExperiment: [Int] = [], slotVariantStart = [0]
    var variantGlobal: [Int] = [], variantDisplayedEvent: [Int] = []
    var variantAssignmentStart = [0], variantAssignments: [Int] = []
    for version in plan.versions {
      for slot in version.slots {
        let experiment = slot.definition, key = experiment.keys[0]
        slotExperiment.append(slot.experimentID)
        for (local, variant) in experiment.variants.enumerated() {
          variantGlobal.append(slot.globalOfLocal[local])
          let displayed = Assignment(
            key: key, value: variant.assignments[key]!, variant: variant.name, experiment: experiment.name,
            source: "Local")
          variantDisplayedEvent.append(Self.event(numbering.number(displayed), reason: Self.displayed))
          for assignment in ActiveVariant(experiment: experiment.name, variant: variant, source: "Local").assignments {
            variantAssignments.append(numbering.number(assignment))
          }
          variantAssignmentStart.append(variantAssignments.count)
        }
        slotVariantStart.append(variantGlobal.count)
      }
      slotStart.append(slotExperiment.count)
    }
    self.slotStart = slotStart
    self.slotExperiment = slotExperiment
    self.slotVariantStart = slotVariantStart
    self.variantGlobal = variantGlobal
    self.variantDisplayedEvent = variantDisplayedEvent
    self.variantAssignmentStart = variantAssignmentStart
    self.variantAssignments = variantAssignments
    self.numbering = numbering
  }

  /// How many event numbers there are so far: `event(_:)` takes any below it.
  public var eventNumbers: Int { numbering.assignments.count * Self.reasons.count }

  /// The event a record's number stands for.
  public func event(_ number: Int) -> AnalyticsEvent {
    AnalyticsEvent(assignment: numbering.assignments[number / Self.reasons.count], reason: Self.reasons[number % Self.reasons.count])
  }

  /// The events recorded so far, spelled out.
  public var rows: [Row] {
    records.map { Row(device: $0.device, day: $0.day, version: versionNames[$0.version], event: event($0.event)) }
  }

  public mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, installDay: Int?, upgradeDays: [Double?]) {
    self.device = device
    for index in 0..<activeKeys.count { active[activeKeys[index]] = -1 }
    activeKeys.removeAll()
    for index in reported.indices { reported[index] = 0 }
  }

  public mutating func launched(_ launch: LaunchRecord) {
    // The manager merges only what it serves: a discarded variant's keys stay with the variant served first.
    let firstSlot = slotStart[launch.version]
    for index in launch.served.indices where launch.served[index] {
      guard let local = launch.decisions[index].variant else { continue }
      let variant = slotVariantStart[firstSlot + index] + local
      for assignment in variantAssignments[variantAssignmentStart[variant]..<variantAssignmentStart[variant + 1]] {
        merge(assignment)
      }
    }
    for holding in launch.remote where holding.served {
      let variant = Variant(name: plan.variantNames[holding.experiment][holding.variant], assignments: holding.values)
      for assignment in ActiveVariant(experiment: plan.experimentNames[holding.experiment], variant: variant, source: "Remote").assignments {
        merge(numbering.number(assignment))
      }
    }
    recordChanges(day: launch.day, version: launch.version)

    for holding in launch.remote where holding.displayed {
      let experiment = plan.experimentNames[holding.experiment], variant = plan.variantNames[holding.experiment][holding.variant]
      guard report(holding.experiment, variant: holding.variant), let key = holding.values.keys.sorted().first else { continue }
      let assignment = Assignment(key: key, value: holding.values[key]!, variant: variant, experiment: experiment, source: "Remote")
      let event = Self.event(numbering.number(assignment), reason: Self.displayed)
      records.append(Record(device: device, day: launch.day, version: launch.version, event: event))
    }
    for index in launch.displayed.indices where launch.displayed[index] {
      let variant = slotVariantStart[firstSlot + index] + launch.decisions[index].variant!
      guard report(slotExperiment[firstSlot + index], variant: variantGlobal[variant]) else { continue }
      records.append(
        Record(device: device, day: launch.day, version: launch.version, event: variantDisplayedEvent[variant]))
    }
    for holding in launch.services where holding.displayed {
      guard report(holding.experiment, variant: holding.variant) else { continue }
      let decision = Assignment(
        key: "", value: .string(""), variant: plan.variantNames[holding.experiment][holding.variant],
        experiment: plan.experimentNames[holding.experiment], source: serviceSource)
      let event = Self.event(numbering.numberDecision(decision), reason: Self.displayed)
      records.append(Record(device: device, day: launch.day, version: launch.version, event: event))
    }
  }

  /// Puts an assignment into the launch's merge, over any earlier one of its key.
  private mutating func merge(_ assignment: Int) {
    let key = numbering.keys[assignment]
    if merged[key] < 0 { mergedKeys.insert(key) }
    merged[key] = assignment
  }

  /// Records the merge's changes to the active assignments as
  /// `AnalyticsEvent.changes` reports them (every key that left or changed,
  /// then every key that arrived or changed, each in key order), and makes
  /// the merge the active assignments.
  private mutating func recordChanges(day: Int, version: Int) {
    for index in 0..<activeKeys.count where merged[activeKeys[index]] != active[activeKeys[index]] {
      records.append(
        Record(device: device, day: day, version: version, event: Self.event(active[activeKeys[index]], reason: Self.deactivated)))
    }
    for index in 0..<mergedKeys.count where merged[mergedKeys[index]] != active[mergedKeys[index]] {
      records.append(
        Record(device: device, day: day, version: version, event: Self.event(merged[mergedKeys[index]], reason: Self.activated)))
    }
    for index in 0..<activeKeys.count { active[activeKeys[index]] = -1 }
    for index in 0..<mergedKeys.count {
      active[mergedKeys[index]] = merged[mergedKeys[index]]
      merged[mergedKeys[index]] = -1
    }
    swap(&activeKeys, &mergedKeys)
    mergedKeys.removeAll()
  }

  private static func event(_ assignment: Int, reason: Int) -> Int {
    assignment * reasons.count + reason
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

  /// Every assignment met so far, numbered in order of appearance, with the
  /// number of its key among all the keys the plan's variants can hold,
  /// sorted: key numbers compare as the keys do.
  private struct Numbering: Sendable {
    private(set) var assignments: [Assignment] = []
    private(set) var keys: [Int] = []
    private var numbers: [Assignment: Int] = [:]
    private let keyOrder: [String: Int]

    init(plan: SimulationPlan) {
      let localKeys = plan.versions.flatMap { $0.slots.flatMap(\.definition.keys) }
      let keys = Set(localKeys + plan.remoteKeys.joined()).sorted()
      keyOrder = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    }

    var keyCount: Int { keyOrder.count }

    /// A service decision's number, numbering it if it is new: it holds no
    /// key, and the manager never merges it.
    mutating func numberDecision(_ decision: Assignment) -> Int {
      if let number = numbers[decision] { return number }
      assignments.append(decision)
      keys.append(-1)
      numbers[decision] = assignments.count - 1
      return assignments.count - 1
    }

    /// The assignment's number, numbering it if it is new.
    mutating func number(_ assignment: Assignment) -> Int {
      if let number = numbers[assignment] { return number }
      guard let key = keyOrder[assignment.key] else {
        preconditionFailure("the plan lists every key a variant can hold, but not \(assignment.key)")
      }
      assignments.append(assignment)
      keys.append(key)
      numbers[assignment] = assignments.count - 1
      return assignments.count - 1
    }
  }

  /// Key numbers in increasing order, in storage kept from launch to launch:
  /// a launch merges a few keys, and sorting them as they come costs less
  /// than a sort.
  private struct SortedKeys: Sendable {
    private var storage: [Int]
    private(set) var count = 0

    init(capacity: Int) {
      storage = Array(repeating: 0, count: capacity)
    }

    subscript(index: Int) -> Int { storage[index] }

    /// Inserts a key not yet in the list.
    mutating func insert(_ key: Int) {
      var index = count
      while index > 0, storage[index - 1] > key {
        storage[index] = storage[index - 1]
        index -= 1
      }
      storage[index] = key
      count += 1
    }

    mutating func removeAll() {
      count = 0
    }
  }

  /// Forgets the records and outcomes kept so far, once they are written out;
  /// the numbering of assignments stays.
  public mutating func removeAll() {
    records.removeAll(keepingCapacity: true)
    outcomes.removeAll(keepingCapacity: true)
  }
}
