/// How often the analysis was right over replications of a scenario.
public struct Calibration: Hashable, Sendable {
  public var replications: Int
  public var experiments: [ExperimentCalibration]
  /// The same replications with every adoption curve at an end of its
  /// interval (`bench --world-ends`): how far the decisions move across what
  /// the team's export could tell of its world; empty unless asked.
  public var adoptionEnds: [AdoptionEndCalibration] = []

  public init(replications: Int, experiments: [ExperimentCalibration]) {
    self.replications = replications
    self.experiments = experiments
  }
}

/// The decisions of the plan's replications with every adoption curve at one
/// end of its points' intervals (`ScenarioFormat.AdoptionEnd`).
public struct AdoptionEndCalibration: Hashable, Sendable {
  /// "slowest" or "fastest".
  public var end: String
  /// Each experiment with metrics, in the document's order, with what its
  /// decision did (its per-metric figures are the plan's own run's).
  public var experiments: [ExperimentCalibration]

  public init(end: String, experiments: [ExperimentCalibration]) {
    self.end = end
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
