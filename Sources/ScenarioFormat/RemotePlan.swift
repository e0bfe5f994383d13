import Lab

/// The remote service in a scenario: the app's defaults, how fetches behave,
/// and the dated changes an operator makes on the service's dashboard.
public struct RemotePlan: Hashable, Sendable {
  /// The app's value for each remote key when no experiment supplies one.
  public var defaults: [String: AssignmentValue]
  public var fetch: FetchModel
  /// The changes in the order they happen; several may share a day.
  public var changes: [RemoteChange]
  /// How the app reads the delivered values.
  public var values: ValueReading = .lab
  /// KOMA's `customValue(for:)` and `debugValue(for:)` (seed 003) on a
  /// share of devices: values the app sets itself, which win over the
  /// fetched ones, custom over debug.
  public var customValues: LocalValues?
  public var debugValues: LocalValues?

  /// Values the app sets on a share of its devices (an internal build, a
  /// debug screen), drawn once per device.
  public struct LocalValues: Hashable, Sendable {
    /// The share of devices that have them.
    public var share: Double
    /// By remote key: the value the app uses instead of the fetched one.
    public var values: [String: AssignmentValue]

    public init(share: Double, values: [String: AssignmentValue]) {
      self.share = share
      self.values = values
    }
  }

  /// How the app reads a delivered value.
  public enum ValueReading: String, Hashable, Sendable {
    /// As Lab's remote source: the value, or the default when it is missing or of another type.
    case lab
    /// As KOMA-Inc/Experiments (seed 003): the same, a `_baseline` suffix
    /// stripped from what is shown, and every read after a fetch tracked.
    case koma
  }

  public init(defaults: [String: AssignmentValue], fetch: FetchModel, changes: [RemoteChange]) {
    self.defaults = defaults
    self.fetch = fetch
    self.changes = changes
  }

  /// The service's configuration after each day that changes it, in order:
  /// the configuration on day d is the last one whose day is at most d.
  public var revisions: [(day: Int, configuration: RemoteConfiguration)] {
    var revisions: [(day: Int, configuration: RemoteConfiguration)] = []
    var configuration = RemoteConfiguration(experiments: [])
    for change in changes {
      configuration = change.applied(to: configuration)
      if revisions.last?.day == change.day {
        revisions[revisions.count - 1].configuration = configuration
      } else {
        revisions.append((change.day, configuration))
      }
    }
    return revisions
  }

  /// Every experiment the service ever runs, in order of addition.
  public var experimentNames: [String] {
    var names: [String] = []
    for change in changes {
      if case .add(let experiment, _) = change.action, !names.contains(experiment.name) { names.append(experiment.name) }
    }
    return names
  }
}

/// How a device's fetch at launch behaves (seed 004): it fails outright with
/// the failure rate, and otherwise takes a log-normal time that must stay
/// within the time-out for the launch to use it.
public struct FetchModel: Hashable, Sendable {
  public var failureRate: Double
  public var medianLatencySeconds: Double
  /// The standard deviation of the latency's logarithm.
  public var latencySigma: Double
  public var timeoutSeconds: Double
  /// Per-segment replacements of the failure rate and the median latency.
  public var segments: [String: SegmentFetch]

  public struct SegmentFetch: Hashable, Sendable {
    public var failureRate: Double?
    public var medianLatencySeconds: Double?

    public init(failureRate: Double?, medianLatencySeconds: Double?) {
      self.failureRate = failureRate
      self.medianLatencySeconds = medianLatencySeconds
    }
  }

  public init(
    failureRate: Double, medianLatencySeconds: Double, latencySigma: Double, timeoutSeconds: Double,
    segments: [String: SegmentFetch]
  ) {
    self.failureRate = failureRate
    self.medianLatencySeconds = medianLatencySeconds
    self.latencySigma = latencySigma
    self.timeoutSeconds = timeoutSeconds
    self.segments = segments
  }

  /// Fetches that always arrive at once.
  public static let reliable = FetchModel(
    failureRate: 0, medianLatencySeconds: 0.2, latencySigma: 0, timeoutSeconds: 5, segments: [:])

  public func failureRate(in segment: String) -> Double {
    segments[segment]?.failureRate ?? failureRate
  }

  public func medianLatency(in segment: String) -> Double {
    segments[segment]?.medianLatencySeconds ?? medianLatencySeconds
  }
}

/// One change on the remote service's dashboard, on a day.
public typealias RemoteChange = PlannedChange<RemoteAction>

/// What a change on the remote service's dashboard does.
public enum RemoteAction: PlannedAction {
  /// A new experiment, with its keys declared as Lab expects.
  case add(RemoteExperiment, keys: [String])
  case remove(experiment: String)
  case setPercentages(experiment: String, percentages: [String: Double])
  case setValues(experiment: String, variant: String, values: [String: RemoteValue])
  /// `__Override_<experiment>` set to these keys.
  case override(experiment: String, keys: [String])
  case conclude(experiment: String, winner: String)
  /// `__Keys_<experiment>` set to this value, well formed or not.
  case declareKeys(experiment: String, value: RemoteValue)

  public var experiment: String {
    switch self {
    case .add(let experiment, _): return experiment.name
    case .remove(let name), .setPercentages(let name, _), .setValues(let name, _, _), .override(let name, _),
      .conclude(let name, _), .declareKeys(let name, _):
      return name
    }
  }
}

extension PlannedChange where Action == RemoteAction {
  func applied(to configuration: RemoteConfiguration) -> RemoteConfiguration {
    var configuration = configuration
    func update(_ name: String, _ body: (inout RemoteExperiment) -> Void) {
      guard let index = configuration.experiments.firstIndex(where: { $0.name == name }) else { return }
      body(&configuration.experiments[index])
    }
    switch action {
    case .add(let experiment, let keys):
      configuration = configuration.adding(experiment, keys: keys)
    case .remove(let name):
      configuration.experiments.removeAll { $0.name == name }
    case .setPercentages(let name, let percentages):
      update(name) { experiment in
        for index in experiment.variants.indices {
          experiment.variants[index].percentage = percentages[experiment.variants[index].name] ?? 0
        }
      }
    case .setValues(let name, let variant, let values):
      update(name) { experiment in
        for index in experiment.variants.indices where experiment.variants[index].name == variant {
          experiment.variants[index].values.merge(values) { $1 }
        }
      }
    case .override(let name, let keys):
      configuration.variables[RemoteConfiguration.overrideVariable(name)] = .json(RemoteConfiguration.jsonArray(keys))
    case .conclude(let name, let winner):
      update(name) { $0 = $0.concluded(winner: winner) }
    case .declareKeys(let name, let value):
      configuration.variables[RemoteConfiguration.keysVariable(name)] = value
    }
    return configuration
  }
}

extension RemoteAction {
  /// The change as the dashboard would say it, with what it does to devices.
  public var description: String {
    let number = NumberText.plain
    switch self {
    case .add(let experiment, let keys):
      let split = experiment.variants.map { "\($0.name) \(number($0.percentage))%" }.joined(separator: ", ")
      return "add \(experiment.name) (keys \(keys.joined(separator: ", ")); \(split))"
    case .remove(let experiment): return "remove \(experiment)"
    case .setPercentages(let experiment, let percentages):
      return "set \(experiment)'s percentages to "
        + percentages.keys.sorted().map { "\($0) \(number(percentages[$0]!))%" }.joined(separator: ", ")
        + " (assigned devices keep their variant)"
    case .setValues(let experiment, let variant, let values):
      return "set \(experiment)/\(variant) values \(values.keys.sorted().joined(separator: ", ")) "
        + "(stabilized devices see them only through an override)"
    case .override(let experiment, let keys): return "override \(experiment)'s \(keys.joined(separator: ", ")) on stabilized devices"
    case .conclude(let experiment, let winner): return "conclude \(experiment) with \(winner) (stabilized devices keep their variant)"
    case .declareKeys(let experiment, let value): return "set __Keys_\(experiment) to \(value)"
    }
  }
}

/// Devices that stop launching because of what a variant does to them: a
/// crash or a bug that drives users away, while the variant's `whileValues`
/// are what the device holds.
public struct ChurnRule: Hashable, Sendable {
  public var experiment: String
  public var variant: String
  /// The values of keys that carry the bug; the rule applies only while the
  /// device holds them (an override that changes them stops it). Empty: always.
  public var whileValues: [String: AssignmentValue]
  /// The chance, each day the device launches holding the variant, that it stops for good.
  public var dailyProbability: Double

  public init(experiment: String, variant: String, whileValues: [String: AssignmentValue], dailyProbability: Double) {
    self.experiment = experiment
    self.variant = variant
    self.whileValues = whileValues
    self.dailyProbability = dailyProbability
  }
}
