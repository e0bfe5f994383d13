import Lab
import ScenarioFormat

/// The fixed workload `bench perf` measures: 5 app versions released on
/// consecutive days, each carrying the same 5 local experiments of 3 variants
/// on disjoint token ranges, every device launching once a day and so once per
/// version, with one conversion metric drawn at the end. The sweep scales one
/// of its sizes at a time.
public enum PerformanceWorkload {
  public static let versions = 5
  public static let experiments = 5

  /// - Parameters:
  ///   - experiments: local experiments per version, each on its own slice of the token.
  ///   - versions: app versions, released on consecutive days.
  ///   - days: days of the run, at least `versions`; later days launch the last version.
  public static func scenario(
    devices: Int, experiments: Int = experiments, versions: Int = versions, days: Int? = nil
  ) throws -> Scenario {
    let experimentList = try (0..<experiments).map { index in
      let key = "key\(index)"
      return try Experiment(
        name: "Experiment\(index)", keys: [key],
        variants: ["A", "B", "C"].map { Variant(name: $0, weight: 1, assignments: [key: .string($0)]) },
        activeTokenRange: TokenRange(lower: Double(index) / Double(experiments), upper: Double(index + 1) / Double(experiments)))
    }
    let appVersions = (0..<versions).map { index in
      AppVersion(
        version: "\(index + 1).0", releaseDay: index,
        adoption: Adoption(meanDelayDays: 0, neverUpgradeShare: 0), stabilizeOnLaunch: nil,
        experiments: experimentList)
    }
    let metric = Metric(
      name: "converted", kind: .conversion, baseline: 0.1, segmentBaselines: [:],
      lifts: ["Experiment0": ["B": 0.05]], segmentLifts: [:])
    return Scenario(
      name: "perf", description: "The fixed performance workload.", seed: 1, devices: devices,
      days: max(days ?? versions, versions), naming: .strict, versions: appVersions, population: .uniform,
      displayProbabilities: [:], metrics: [metric], analysis: .standard)
  }
}
