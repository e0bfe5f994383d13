/// The one thing to do with an experiment, over its success metrics and
/// guardrails at once, with what each treatment variant showed.
/// docs/statistics.md ("One decision per experiment") gives the rule and the
/// error rates it bounds.
public struct ExperimentDecision: Hashable, Sendable {
  public enum Action: Hashable, Sendable {
    /// Ship this variant: the best of those that cleared the rule, by the
    /// difference of means on the first success metric.
    case ship(String)
    /// Keep the baseline: every remaining variant was decided against, or
    /// the plan left none to decide on.
    case keepBaseline
    /// Keep running: some variant has not reached the devices the decision
    /// needs. `devicesNeeded`: the most any such variant needs, per variant.
    case keepRunning(devicesNeeded: Int?)
    /// Do not trust the results, for this reason (the highest ranked among
    /// the remaining variants'; a sample ratio mismatch withholds them all).
    case doNotTrust(Distrust)
  }

  public var action: Action
  /// Every treatment variant, in the experiment's variant order.
  public var variants: [VariantDecision]
  /// The metrics a variant must win on (one of them), and the guardrails
  /// with their margins it must be shown not to harm, in the scenario's order.
  public var successMetrics: [String]
  public var guardrails: [(metric: String, margin: Double)]
  /// The one-sided level of each success and non-inferiority test, α/(T·S),
  /// and the type II error each is powered at, β/(G + 1).
  public var testAlpha: Double?
  public var testBeta: Double?
  /// The one-sided level of each deterioration test.
  public var deteriorationAlpha: Double
  /// Devices per variant with which the decision ships a variant of the
  /// planned effect with the target power: the largest any success test or
  /// guardrail needs. `nil` where not computable (a baseline of 0 without a
  /// planned difference, no variance).
  public var devicesPerVariant: Int?
  /// The fewest devices the baseline or a remaining variant counts.
  public var smallestArm: Int

  public init(
    action: Action, variants: [VariantDecision], successMetrics: [String], guardrails: [(metric: String, margin: Double)],
    testAlpha: Double?, testBeta: Double?, deteriorationAlpha: Double, devicesPerVariant: Int?, smallestArm: Int
  ) {
    self.action = action
    self.variants = variants
    self.successMetrics = successMetrics
    self.guardrails = guardrails
    self.testAlpha = testAlpha
    self.testBeta = testBeta
    self.deteriorationAlpha = deteriorationAlpha
    self.devicesPerVariant = devicesPerVariant
    self.smallestArm = smallestArm
  }

  /// The action's name in results.json.
  public var actionName: String {
    switch action {
    case .ship: "ship"
    case .keepBaseline: "keep baseline"
    case .keepRunning: "keep running"
    case .doNotTrust: "do not trust"
    }
  }

  public static func == (lhs: ExperimentDecision, rhs: ExperimentDecision) -> Bool {
    lhs.action == rhs.action && lhs.variants == rhs.variants && lhs.successMetrics == rhs.successMetrics
      && lhs.guardrails.map(\.metric) == rhs.guardrails.map(\.metric)
      && lhs.guardrails.map(\.margin) == rhs.guardrails.map(\.margin) && lhs.testAlpha == rhs.testAlpha
      && lhs.testBeta == rhs.testBeta && lhs.deteriorationAlpha == rhs.deteriorationAlpha
      && lhs.devicesPerVariant == rhs.devicesPerVariant && lhs.smallestArm == rhs.smallestArm
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(action)
    hasher.combine(variants)
  }
}

/// What one treatment variant showed under the experiment's rule.
public struct VariantDecision: Hashable, Sendable {
  public enum Action: Hashable, Sendable {
    /// Significantly better on `metric` (a success metric, or with none, safe
    /// on every guardrail), safe on every guardrail, worse on none.
    case ship(metric: String?)
    /// Decided against, for this reason.
    case keepBaseline(KeepReason)
    /// Not decided yet: `devicesNeeded` more per variant reach the
    /// decision's sample. `waitingFor`: the guardrail whose safety is still
    /// to be shown when a success metric already won.
    case keepRunning(devicesNeeded: Int?, waitingFor: String?)
    case doNotTrust(Distrust)
    /// The plan deleted the variant in this version: not a candidate.
    case retired(version: String)
  }

  /// Why a variant is decided against.
  public enum KeepReason: Hashable, Sendable {
    /// Significantly worse on this success metric or guardrail.
    case deteriorates(metric: String)
    /// A success metric won, but at the decision's sample this guardrail is
    /// still not shown safe.
    case guardrailNotShownSafe(metric: String)
    /// The decision's sample is reached and no success metric won.
    case noSuccess
  }

  public var variant: String
  public var action: Action
  /// Under contamination: the devices shown only this variant (and only the
  /// baseline) reach the minimum per variant, so `exclude-contaminated`
  /// attribution would count enough of them to decide.
  public var readableExcludingContaminated = false
  /// Whether the variant truly beats the baseline on some success metric
  /// and truly loses less than its margin on every guardrail; `nil` where
  /// the truth is unknown (real data).
  public var trulyBetter: Bool?
  /// The variant's true lift on the success metric a ship won on, else on
  /// the first success metric: the sign a ship is judged against.
  public var trueLift: Double?
  /// The one-sided p-value behind a ship (its winning success test) or a
  /// deterioration (the test of the metric that got worse).
  public var oneSidedPValue: Double?

  public init(variant: String, action: Action) {
    self.variant = variant
    self.action = action
  }

  public var actionName: String {
    switch action {
    case .ship: "ship"
    case .keepBaseline: "keep baseline"
    case .keepRunning: "keep running"
    case .doNotTrust: "do not trust"
    case .retired: "retired"
    }
  }
}
