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
  /// Per experiment with metrics, in the document's order, what its decision did.
  public var decisions: [(experiment: String, rates: DecisionRates)]

  public init(end: String, decisions: [(experiment: String, rates: DecisionRates)]) {
    self.end = end
    self.decisions = decisions
  }

  public static func == (left: Self, right: Self) -> Bool {
    left.end == right.end && left.decisions.elementsEqual(right.decisions) { $0.experiment == $1.experiment && $0.rates == $1.rates }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(end)
    for decision in decisions {
      hasher.combine(decision.experiment)
      hasher.combine(decision.rates)
    }
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
