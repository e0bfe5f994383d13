/// A hash-bucketed experiment service in a scenario (Optimizely, GrowthBook,
/// LaunchDarkly, Statsig, Eppo, Unleash or any other platform with a plug-in):
/// the platform, what the app keeps on the device, and the dated
/// changes made on the service's dashboard. docs/scenarios.md documents it and
/// docs/compare.md how a plan maps onto each framework.
public struct ServicePlan: Hashable, Sendable {
  /// The platform the service runs on, as its plug-in describes it.
  public var framework: PlatformTraits
  /// Optimizely's user profile store, or GrowthBook's sticky bucketing: a
  /// device keeps a decision across restarts and configuration changes. The
  /// scenario's choice, else the framework's mobile default, so that a plan
  /// compared under several frameworks runs each with its own default.
  public var sticky: Bool { stickyChoice ?? framework.keepsDecisionsByDefault }
  /// The scenario's `sticky`, `nil` when it leaves it to the framework.
  public var stickyChoice: Bool?
  /// The share of devices that reinstall the app once, on a day drawn
  /// uniformly: the device gets a new id and loses what it stored.
  public var reinstallShare: Double
  /// How the configuration download at each launch behaves; a failed one
  /// keeps the last configuration, or the one bundled in the running version.
  public var fetch: FetchModel
  /// Optimizely only (seed 001): the chance, at a launch, that the app reads
  /// its experiments before that launch's datafile download completes. The
  /// activations are then the previous datafile's for the whole session, and
  /// the new one counts from the next launch, a restart.
  public var accessBeforeDownload: Double = 0
  public var changes: [ServiceChange]
  /// Optimizely's feature flags, each a rollout whose share the dashboard
  /// sets on given days (seed 001: "The latest value will always be
  /// returned for a feature flag").
  public var flags: [ServiceFlag] = []

  public init(framework: PlatformTraits, sticky: Bool?, reinstallShare: Double, fetch: FetchModel, changes: [ServiceChange]) {
    self.framework = framework
    self.stickyChoice = sticky
    self.reinstallShare = reinstallShare
    self.fetch = fetch
    self.changes = changes
  }

  /// The configuration after each day that changes it, in order: on day d
  /// it is the last one whose day is at most d. One copy of the experiments
  /// per day with changes, however many changes the day holds; a flag's
  /// rollout changes the configuration too (`flags`: each flag's share, for
  /// the flags the configuration has by then).
  public var revisions: [(day: Int, experiments: [ServiceExperiment], flags: [String: Double])] {
    var revisions: [(day: Int, experiments: [ServiceExperiment], flags: [String: Double])] = []
    var experiments: [ServiceExperiment] = []
    let flagDays = flags.flatMap { $0.rollout.map(\.day) }
    let days = Set(changes.map(\.day) + flagDays).sorted()
    var index = changes.startIndex
    for day in days {
      while index < changes.endIndex && changes[index].day == day {
        changes[index].apply(to: &experiments)
        index += 1
      }
      var shares: [String: Double] = [:]
      for flag in flags { shares[flag.name] = flag.rollout.last { $0.day <= day }?.share }
      revisions.append((day, experiments, shares))
    }
    return revisions
  }

  /// Every experiment the service runs, in order of start, with every
  /// variation it ever has.
  public var experimentVariations: [(name: String, variations: [String])] {
    var result: [(name: String, variations: [String])] = []
    var indexOfName: [String: Int] = [:]
    for revision in revisions {
      for experiment in revision.experiments {
        let index = indexOfName[experiment.name] ?? {
          result.append((experiment.name, []))
          indexOfName[experiment.name] = result.count - 1
          return result.count - 1
        }()
        for variation in experiment.variations where !result[index].variations.contains(variation.name) {
          result[index].variations.append(variation.name)
        }
      }
    }
    return result
  }
}

/// A feature flag on Optimizely: a rollout that turns the flag on for a
/// share of users (by the bucketing hash), set on given days.
public struct ServiceFlag: Hashable, Sendable {
  public var name: String
  /// The share of users the flag is on for, from each day on, in day order;
  /// the flag is not in the configuration before the first.
  public var rollout: [Step]

  public struct Step: Hashable, Sendable {
    public var day: Int
    public var share: Double

    public init(day: Int, share: Double) {
      self.day = day
      self.share = share
    }
  }

  public init(name: String, rollout: [Step]) {
    self.name = name
    self.rollout = rollout
  }
}

/// An experiment on a hash-bucketed service, as the dashboard configures it.
public struct ServiceExperiment: Hashable, Sendable {
  public var name: String
  public var variations: [ServiceVariation]
  /// The share of eligible users in the experiment (Optimizely's traffic
  /// allocation, GrowthBook's coverage).
  public var traffic: Double
  public var audience: ServiceAudience
  /// `running`, `paused` or `concluded`.
  public var status: Status
  /// The variation every user in the audience gets once concluded.
  public var winner: String?
  /// GrowthBook's bucket version: raising it re-buckets everyone.
  public var bucketVersion: Int

  public enum Status: String, Hashable, Sendable {
    case running, paused, concluded
  }

  public init(
    name: String, variations: [ServiceVariation], traffic: Double, audience: ServiceAudience, status: Status = .running,
    winner: String? = nil, bucketVersion: Int = 0
  ) {
    self.name = name
    self.variations = variations
    self.traffic = traffic
    self.audience = audience
    self.status = status
    self.winner = winner
    self.bucketVersion = bucketVersion
  }
}

public struct ServiceVariation: Hashable, Sendable {
  public var name: String
  /// A relative weight; the service splits the traffic in proportion.
  public var weight: Double

  public init(name: String, weight: Double) {
    self.name = name
    self.weight = weight
  }
}

/// Who an experiment targets: segment attributes (a device must have one of
/// the listed values for every attribute listed) and the oldest app version.
public struct ServiceAudience: Hashable, Sendable {
  public var attributes: [String: [String]]
  /// Devices running an older app version are outside the audience.
  public var minimumAppVersion: String?

  public init(attributes: [String: [String]] = [:], minimumAppVersion: String? = nil) {
    self.attributes = attributes
    self.minimumAppVersion = minimumAppVersion
  }
}

/// One change on a hash-bucketed service's dashboard, on a day.
public typealias ServiceChange = PlannedChange<ServiceAction>

/// What a change on a hash-bucketed service's dashboard does.
public enum ServiceAction: PlannedAction {
  case start(ServiceExperiment)
  case setTraffic(experiment: String, traffic: Double)
  case setWeights(experiment: String, weights: [String: Double])
  case addVariation(experiment: String, variation: ServiceVariation)
  case removeVariation(experiment: String, variation: String)
  case setAudience(experiment: String, audience: ServiceAudience)
  case pause(experiment: String)
  case resume(experiment: String)
  case conclude(experiment: String, winner: String)
  /// GrowthBook's "re-randomize": a new bucket version.
  case newBucketVersion(experiment: String)

  public var experiment: String {
    switch self {
    case .start(let experiment): return experiment.name
    case .setTraffic(let name, _), .setWeights(let name, _), .addVariation(let name, _), .removeVariation(let name, _),
      .setAudience(let name, _), .pause(let name), .resume(let name), .conclude(let name, _), .newBucketVersion(let name):
      return name
    }
  }
}

extension PlannedChange where Action == ServiceAction {
  func apply(to experiments: inout [ServiceExperiment]) {
    if case .start(let experiment) = action {
      experiments.append(experiment)
      return
    }
    guard let index = experiments.firstIndex(where: { $0.name == experiment }) else { return }
    switch action {
    case .start: break
    case .setTraffic(_, let traffic): experiments[index].traffic = traffic
    case .setWeights(_, let weights):
      for variation in experiments[index].variations.indices {
        experiments[index].variations[variation].weight = weights[experiments[index].variations[variation].name] ?? 0
      }
    case .addVariation(_, let variation): experiments[index].variations.append(variation)
    case .removeVariation(_, let name): experiments[index].variations.removeAll { $0.name == name }
    case .setAudience(_, let audience): experiments[index].audience = audience
    case .pause: experiments[index].status = .paused
    case .resume: experiments[index].status = .running
    case .conclude(_, let winner):
      experiments[index].status = .concluded
      experiments[index].winner = winner
    case .newBucketVersion: experiments[index].bucketVersion += 1
    }
  }
}

extension ServiceAction {
  /// The change as the dashboard would say it, e.g. "traffic set to 100%".
  public var description: String {
    let number = NumberText.plain
    switch self {
    case .start(let experiment):
      return "started with " + experiment.variations.map { "\($0.name) \(number($0.weight))" }.joined(separator: ", ")
        + " on \(number(experiment.traffic * 100))% of traffic"
    case .setTraffic(_, let traffic): return "traffic set to \(number(traffic * 100))%"
    case .setWeights(_, let weights):
      return "weights set to " + weights.keys.sorted().map { "\($0) \(number(weights[$0]!))" }.joined(separator: ", ")
    case .addVariation(_, let variation): return "variation \(variation.name) added with weight \(number(variation.weight))"
    case .removeVariation(_, let variation): return "variation \(variation) removed"
    case .setAudience: return "audience changed"
    case .pause: return "paused"
    case .resume: return "resumed"
    case .conclude(_, let winner): return "concluded with \(winner)"
    case .newBucketVersion: return "re-randomized (new bucket version)"
    }
  }
}
