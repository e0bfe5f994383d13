import Lab
import ScenarioFormat

/// The fixed workload `bench perf` measures: 5 app versions released on
/// consecutive days, each carrying the same 5 local experiments of 3 variants
/// on disjoint token ranges, every device launching once a day and so once per
/// version, with one conversion metric drawn at the end. The sweep scales one
/// of its sizes at a time; `World` gives the same plan a team's world.
public enum PerformanceWorkload {
  public static let versions = 5
  public static let experiments = 5

  /// The world of a fitted plan (docs/world.md) for `bench perf --world`:
  /// devices installed before day 0 and every day after it, each its own
  /// activity probability from a beta distribution, weekday factors, several
  /// launches on an active day, and a hazard of stopping for good, faster in
  /// a new device's first week; the versions are released weekly over 5
  /// weeks. Every mechanic the device loop reads for installs and sessions
  /// is on, with numbers of a mobile app's size.
  public struct World: Sendable {
    public static let days = 35
    public static let releaseInterval = 7
    public static let installs = InstallSchedule(existing: 10_000, daily: 300)
    public static let activity = Activity(
      probability: BetaDistribution(mean: 0.45, concentration: 3), launchesPerActiveDay: 2.2,
      inactivityHazard: 0.01, firstWeekInactivityHazard: 0.06)
    /// From Monday: busier at the weekend.
    public static let weekdayFactors = [0.95, 0.95, 0.95, 1.0, 1.05, 1.25, 1.2]
  }

  /// - Parameters:
  ///   - experiments: local experiments per version, each on its own slice of the token.
  ///   - versions: app versions, released on consecutive days (weekly in `World`).
  ///   - days: days of the run, at least `versions`; later days launch the last version.
  ///   - world: whether devices live in `World` rather than all launching daily from day 0.
  public static func scenario(
    devices: Int, experiments: Int = experiments, versions: Int = versions, days: Int? = nil, world: Bool = false
  ) throws -> Scenario {
    let experimentList = try (0..<experiments).map { index in
      let key = "key\(index)"
      return try Experiment(
        name: "Experiment\(index)", keys: [key],
        variants: ["A", "B", "C"].map { Variant(name: $0, weight: 1, assignments: [key: .string($0)]) },
        activeTokenRange: TokenRange(lower: Double(index) / Double(experiments), upper: Double(index + 1) / Double(experiments)))
    }
    let interval = world ? World.releaseInterval : 1
    let appVersions = (0..<versions).map { index in
      AppVersion(
        version: "\(index + 1).0", releaseDay: index * interval,
        adoption: Adoption(meanDelayDays: 0, neverUpgradeShare: 0), stabilizeOnLaunch: nil,
        experiments: experimentList)
    }
    let metric = Metric(
      name: "converted", kind: .conversion, baseline: 0.1, segmentBaselines: [:],
      lifts: ["Experiment0": ["B": 0.05]], segmentLifts: [:])
    var population = Population.uniform
    if world {
      population.installs = World.installs
      population.segments[0].activity = World.activity
      population.weekdayFactors = World.weekdayFactors
    }
    return Scenario(
      name: world ? "perf-world" : "perf", description: "The fixed performance workload.", seed: 1, devices: devices,
      days: max(days ?? (world ? World.days : versions), (versions - 1) * interval + 1), naming: .strict,
      versions: appVersions, population: population, displayProbabilities: [:], metrics: [metric], analysis: .standard)
  }
}
