import Lab

/// Watches one device's life as the simulation runs it: the bench's debug
/// screen and the analytics events export are observers; a plain run has none,
/// and the compiler removes the calls.
public protocol DeviceObserver {
  /// Whether the simulation should report to this observer at all.
  static var isObserving: Bool { get }
  /// `installDay` is nil for a device installed before day 0; `upgradeDays`
  /// holds the day each version became installed, nil for one never taken.
  mutating func started(device: Int, token: ActiveExperimentsToken, segment: Int, installDay: Int?, upgradeDays: [Double?])
  mutating func launched(_ launch: LaunchRecord)
  /// The experiments with an enrollment rule that were active on the device
  /// and never enrolled it, as results.json counts them; called before
  /// `finished`, for devices with some.
  mutating func neverEnrolled(_ experiments: [Int])
  mutating func finished(outcomes: [Double])
}

extension DeviceObserver {
  public mutating func neverEnrolled(_ experiments: [Int]) {}
}

/// One launch of the app on one device.
///
/// The simulator fills one record in place at every launch, so that a launch
/// allocates nothing for an observer that reads the record and does not keep it.
public struct LaunchRecord: Sendable {
  public internal(set) var day: Int
  /// The running version's number in the scenario.
  public internal(set) var version: Int
  /// The launch of this version on this device, from 1.
  public internal(set) var launchOfVersion: Int
  /// The local source's decision for each of the version's experiments.
  public internal(set) var decisions: [LocalDecision]
  /// For each of the version's experiments, whether the assignments manager
  /// served it: active, and not discarded for a key an earlier one took.
  public internal(set) var served: [Bool]
  /// The variants the manager discarded at this launch, in its merge order.
  public internal(set) var clashes: [LaunchClash]
  /// For each of the version's experiments, whether it was displayed.
  public internal(set) var displayed: [Bool]
  /// Whether the version called stabilize at this launch.
  public internal(set) var stabilized: Bool
  /// The remote experiments the device holds after this launch's fetch.
  public internal(set) var remote: [RemoteHolding]
  /// The hash-bucketed service's experiments the device is in at this launch.
  public internal(set) var services: [ServiceHolding]

  init() {
    day = 0
    version = 0
    launchOfVersion = 0
    decisions = []
    served = []
    clashes = []
    displayed = []
    stabilized = false
    remote = []
    services = []
  }
}

/// A remote experiment a device holds at a launch.
public struct RemoteHolding: Sendable {
  /// The plan's experiment and variant numbers.
  public let experiment: Int
  public let variant: Int
  public let values: [String: AssignmentValue]
  /// Whether the assignments manager served it (see `LaunchRecord.served`).
  public let served: Bool
  public let displayed: Bool
}

/// An experiment of the hash-bucketed service a device is in at a launch.
public struct ServiceHolding: Sendable {
  /// The plan's experiment and variant numbers.
  public let experiment: Int
  public let variant: Int
  public let displayed: Bool
}

/// A variant the assignments manager discarded at a launch because its keys
/// met those of a variant it served first (`KeySharing.serve`).
public struct LaunchClash: Hashable, Sendable {
  /// The keys both held at the launch, sorted.
  public let keys: [String]
  /// The plan's experiment and variant numbers of the served variant.
  public let servedExperiment: Int
  public let servedVariant: Int
  /// The plan's experiment and variant numbers of the discarded variant.
  public let discardedExperiment: Int
  public let discardedVariant: Int
}

/// The observer of a plain run: observes nothing.
public struct NoObserver: DeviceObserver, Sendable {
  public static var isObserving: Bool { false }
  public init() {}
  public func started(device: Int, token: ActiveExperimentsToken, segment: Int, installDay: Int?, upgradeDays: [Double?]) {}
  public func launched(_ launch: LaunchRecord) {}
  public func finished(outcomes: [Double]) {}
}
