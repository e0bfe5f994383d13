import Lab

/// A plan to try on a simulated population: the app versions a team intends to
/// ship, each with the local experiments its binary carries, and the devices
/// that will run them. docs/scenarios.md documents every field.
public struct Scenario: Hashable, Sendable {
  public var name: String
  public var description: String
  /// The seed every random draw of a run derives from.
  public var seed: UInt64
  public var devices: Int
  public var days: Int
  /// How names that break Lab's conventions are treated.
  public var naming: NamingPolicy
  /// The versions in release order; the first is released on day 0.
  public var versions: [AppVersion]
  public var population: Population
  /// The chance that an active experiment is displayed at a launch, by
  /// experiment name; 1 for experiments not listed.
  public var displayProbabilities: [String: Double]
  /// When the app displays an experiment, by experiment name; at every
  /// launch for experiments not listed.
  public var displayMoments: [String: DisplayMoment] = [:]
  public var metrics: [Metric]
  /// Ratios of two metrics' sums, analysed beside the metrics.
  public var ratios: [RatioMetric] = []
  public var analysis: AnalysisSettings
  /// The remote service and its timeline; `nil` when the app uses local experiments only.
  public var remote: RemotePlan?
  /// A hash-bucketed service (Optimizely, GrowthBook) and its timeline.
  public var service: ServicePlan?
  /// Variants that make devices stop launching.
  public var churn: [ChurnRule]
  /// When a device really enters an experiment, by experiment name; an
  /// experiment without a rule enrolls the devices it shows itself to.
  public var enrollment: [String: EnrollmentRule] = [:]
  /// What the plan promises, checked by `bench test`; the run and its report ignore it.
  public var expectations: [PlanExpectation] = []

  /// The chance that `experiment`, when active, is displayed at a launch.
  public func displayProbability(of experiment: String) -> Double {
    displayProbabilities[experiment] ?? 1
  }

  /// When the app displays `experiment` while it holds a variant of it.
  public func displayMoment(of experiment: String) -> DisplayMoment {
    displayMoments[experiment] ?? .everyLaunch
  }

  public init(
    name: String, description: String, seed: UInt64, devices: Int, days: Int, naming: NamingPolicy,
    versions: [AppVersion], population: Population, displayProbabilities: [String: Double], metrics: [Metric],
    analysis: AnalysisSettings, remote: RemotePlan? = nil, service: ServicePlan? = nil, churn: [ChurnRule] = []
  ) {
    self.name = name
    self.description = description
    self.seed = seed
    self.devices = devices
    self.days = days
    self.naming = naming
    self.versions = versions
    self.population = population
    self.displayProbabilities = displayProbabilities
    self.metrics = metrics
    self.analysis = analysis
    self.remote = remote
    self.service = service
    self.churn = churn
  }
}

/// One release of the app.
public struct AppVersion: Hashable, Sendable {
  /// The version string, e.g. `2.0`.
  public var version: String
  /// The day of the run on which the version is released.
  public var releaseDay: Int
  /// How devices move to this version after its release.
  public var adoption: Adoption
  /// The launch of this version, counted from 1 on each device, on which it
  /// calls stabilize; `nil` when it never does.
  public var stabilizeOnLaunch: Int?
  /// The local experiments compiled into this version.
  public var experiments: [Experiment]
  /// How the stores serve the version; nil: to every device from its release day.
  public var rollout: StoreRollout?
  /// The day from which older versions are no longer supported: a device on
  /// one updates to this version at its first launch from then on.
  public var requiredFromDay: Int?

  public init(version: String, releaseDay: Int, adoption: Adoption, stabilizeOnLaunch: Int?, experiments: [Experiment]) {
    self.version = version
    self.releaseDay = releaseDay
    self.adoption = adoption
    self.stabilizeOnLaunch = stabilizeOnLaunch
    self.experiments = experiments
  }
}

/// How devices upgrade to a version once it is released.
public struct Adoption: Hashable, Sendable {
  /// The mean of the exponential delay, in days, between release and upgrade.
  public var meanDelayDays: Double
  /// The share of devices that never upgrade to this version.
  public var neverUpgradeShare: Double
  /// The share of the devices that upgrade which have automatic updates on:
  /// they take the version within a day of the store serving it to them; the
  /// others update by hand, after the exponential delay.
  public var automaticShare: Double = 0
  /// The observed share of devices updated by each day since the release, in
  /// place of the delays; nil when the delays model it.
  public var curve: [AdoptionPoint]?

  /// Everyone upgrades on release day: the first version, which every device installs.
  public static let immediate = Adoption(meanDelayDays: 0, neverUpgradeShare: 0)

  public init(meanDelayDays: Double, neverUpgradeShare: Double) {
    self.meanDelayDays = meanDelayDays
    self.neverUpgradeShare = neverUpgradeShare
  }
}

/// A point of an adoption curve: `share` of the devices have updated `day`
/// days after the release.
public struct AdoptionPoint: Hashable, Sendable {
  public var day: Double
  public var share: Double
  /// Where the share may lie, as measured (a fitted curve's 95% interval):
  /// what `Scenario.atAdoptionEnd` runs the plan at, to say how much its
  /// decisions depend on it; nil for a share taken as exact.
  public var interval: ClosedRange<Double>?

  public init(day: Double, share: Double, interval: ClosedRange<Double>? = nil) {
    self.day = day
    self.share = share
    self.interval = interval
  }
}

/// An end of the adoption curves' intervals (`AdoptionPoint.interval`).
public enum AdoptionEnd: String, Hashable, Sendable, CaseIterable {
  /// Every curve at the low end of each point's interval: the slowest adoption the measure allows.
  case slowest
  /// Every curve at the high end: the fastest.
  case fastest
}

extension Scenario {
  /// Whether some version's adoption curve says how sure its shares are.
  public var hasAdoptionIntervals: Bool {
    versions.contains { $0.adoption.curve?.contains { $0.interval != nil } ?? false }
  }

  /// The same plan with every adoption curve at `end` of its points'
  /// intervals (a point without one keeps its share).
  public func atAdoptionEnd(_ end: AdoptionEnd) -> Scenario {
    var scenario = self
    for index in scenario.versions.indices {
      guard let curve = scenario.versions[index].adoption.curve else { continue }
      scenario.versions[index].adoption.curve = curve.map { point in
        guard let interval = point.interval else { return point }
        return AdoptionPoint(day: point.day, share: end == .slowest ? interval.lowerBound : interval.upperBound)
      }
    }
    return scenario
  }
}

extension Array where Element == AdoptionPoint {
  /// The days after the release by which a share `unit` of the devices have
  /// updated, linear between the points and from (0, 0); nil for a device
  /// beyond the last point's share, which does not update within the curve.
  public func delay(forUnit unit: Double) -> Double? {
    var previous = AdoptionPoint(day: 0, share: 0)
    for point in self {
      if unit < point.share {
        return previous.day + (unit - previous.share) / (point.share - previous.share) * (point.day - previous.day)
      }
      previous = point
    }
    return nil
  }

  /// The share of the devices updated `days` after the release, the curve
  /// `delay(forUnit:)` inverts: linear between the points, from (0, 0), and
  /// the last point's share after it.
  public func share(after days: Double) -> Double {
    var previous = AdoptionPoint(day: 0, share: 0)
    for point in self {
      if days <= point.day {
        guard point.day > previous.day else { return point.share }
        return previous.share + (days - previous.day) / (point.day - previous.day) * (point.share - previous.share)
      }
      previous = point
    }
    return previous.share
  }
}
