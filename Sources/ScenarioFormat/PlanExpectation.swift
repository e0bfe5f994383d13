/// What a plan promises about its own effect, checked by `bench test` against
/// the figures its report computes: a release plan kept in an app's
/// repository is tested on every change, as its code is.
public struct PlanExpectation: Hashable, Sendable {
  /// What is measured.
  public enum Measure: Hashable, Sendable {
    /// The share of an experiment's devices that an upgrade (into `version`,
    /// or any) moved to another variant: reassigned, or returning on another.
    case reshuffled(experiment: String, version: String?)
    /// The share of an experiment's devices shown more than one of its variants.
    case mixed(experiment: String)
    /// The share of the devices a dashboard change reached that it moved to
    /// another variation, at the worst change of a service's experiment.
    case moved(experiment: String)
    /// Over the plan's replications, the share in which the experiment's
    /// decision ships a variant that truly wins (`rightShip`) or one that
    /// does not (`wrongShip`).
    case rightShip(experiment: String)
    case wrongShip(experiment: String)
    /// Of the devices on which an experiment with an enrollment rule was
    /// active, the share that never enrolled.
    case neverEnrolled(experiment: String)
    /// Devices served one key by two experiments at once, over every key or one.
    case keyClashes(key: String?)
    /// Whether the experiment's split differs from its weights (the sample ratio check).
    case sampleRatioMismatch(experiment: String)
    /// Devices that met a rule (docs/rules/), by its page's name.
    case rule(String)
  }

  /// The bound the measure must keep.
  public enum Bound: Hashable, Sendable {
    case atMost(Double)
    case atLeast(Double)
  }

  public var measure: Measure
  public var bound: Bound
  /// Where the expectation sits in the scenario (`expect[2]`), for messages.
  public var path: String

  public init(measure: Measure, bound: Bound, path: String) {
    self.measure = measure
    self.bound = bound
    self.path = path
  }

  /// The rules an expectation can name: the local source's, whose devices a run counts per upgrade.
  public static let rules = ["AssignmentChange", "DeletedVariant", "ExperimentReAdded", "TokenRangeChange"]
}
