/// How often the analysis was right over replications of a scenario.
public struct Calibration: Hashable, Sendable {
  public var replications: Int
  public var experiments: [ExperimentCalibration]

  public init(replications: Int, experiments: [ExperimentCalibration]) {
    self.replications = replications
    self.experiments = experiments
  }
}

public struct ExperimentCalibration: Hashable, Sendable {
  public var name: String
  /// What the experiment's one decision did over the replications; `nil`
  /// for an experiment without metrics.
  public var decision: DecisionRates?
  public var metrics: [MetricCalibration]

  public init(name: String, decision: DecisionRates? = nil, metrics: [MetricCalibration]) {
    self.name = name
    self.decision = decision
    self.metrics = metrics
  }
}
