/// What a run found, in the shape of results.json
/// (../shared/contracts/results.md): the report and other tools read this, not
/// the simulation's tallies.
public struct ResultsDocument: Hashable, Sendable {
  public var scenario: String
  public var seed: UInt64
  public var devices: Int
  public var days: Int
  public var replications: Int
  /// Launches over all devices of the first replication.
  public var launches: Int
  /// Devices on which some version called stabilize.
  public var stabilizedDevices: Int
  public var experiments: [ExperimentResult]
  public var conflicts: [ConflictResult]
}

/// One experiment across the run.
public struct ExperimentResult: Hashable, Sendable {
  public var name: String
  public var source: String
  /// The baseline of the last version that defines the experiment.
  public var baseline: String
  public var variants: [VariantResult]
  public var transitions: [TransitionResult]
  /// Per variant, the devices displayed it on each day.
  public var dailyExposures: [[Int]]
}

/// One variant of an experiment.
public struct VariantResult: Hashable, Sendable {
  public var name: String
  /// The weight in the last version that defines the variant.
  public var weight: Int
  /// Devices with a "displayed" event for this variant.
  public var exposed: Int
  /// Of those, devices shown another variant of the experiment too.
  public var contaminated: Int
  /// Per metric, in the scenario's order.
  public var metrics: [MetricSummary]
}

/// A metric over the devices a variant counts under the scenario's attribution.
public struct MetricSummary: Hashable, Sendable {
  public var name: String
  public var isConversion: Bool
  public var n: Int
  /// Devices whose outcome was 1, for conversion metrics.
  public var conversions: Int?
  public var mean: Double?
  /// The sample variance (n − 1 in the denominator).
  public var variance: Double?
  /// The mean the devices would have had, had they been shown only this variant.
  public var trueMean: Double?
}

/// Devices upgrading from one version to another, and what it did to one experiment.
public struct TransitionResult: Hashable, Sendable {
  public var fromVersion: String
  public var toVersion: String
  /// Devices that made this upgrade between two launches.
  public var devices: Int
  public var kept: Int
  public var reassigned: Int
  public var deactivated: Int
  public var activated: Int
}

/// Two experiments that share a key, and the devices on which the assignments
/// manager refused them because both were active.
public struct ConflictResult: Hashable, Sendable {
  public var key: String
  public var experiments: [String]
  public var devices: Int
}
