/// How a run's outcomes are analysed.
public struct AnalysisSettings: Hashable, Sendable {
  /// Which devices count for a variant.
  public enum Attribution: String, Hashable, Sendable, CaseIterable {
    /// Every device with a "displayed" event, counted under the first variant it was shown.
    case firstExposure = "first-exposure"
    /// Only devices that were shown a single variant of the experiment.
    case excludeContaminated = "exclude-contaminated"
  }

  /// The correction for testing several variants and metrics of one experiment.
  public enum Correction: String, Hashable, Sendable, CaseIterable {
    case none
    case holm
    case benjaminiHochberg = "benjamini-hochberg"
  }

  /// How the relative lift's interval is computed.
  public enum LiftInterval: String, Hashable, Sendable, CaseIterable {
    /// On the ratio's own scale, within [−100%, ∞): MOVER-R from Wilson
    /// intervals for rates, the log of the ratio with Welch's t for amounts.
    case ratio
    /// The symmetric delta-method interval, lift ± z·se: can fall below −100%
    /// and shrinks to a point when a variance is 0.
    case delta
  }

  /// The significance level; confidence intervals are at 1 − alpha.
  public var alpha: Double
  public var correction: Correction
  public var attribution: Attribution
  /// Whether to test again at the end of every day, to show what peeking costs.
  public var dailyLooks: Bool
  /// The smallest relative lift worth detecting: the power calculation's target.
  public var minimumDetectableEffect: Double
  /// The chance of detecting that lift that the sample must give.
  public var power: Double
  /// Whether to also analyse an experiment with an enrollment rule the way a
  /// common mistake does, counting the devices that never enrolled as its
  /// baseline, so that the report shows what that does.
  public var neverEnrolledAsBaseline = false
  public var liftInterval = LiftInterval.ratio
  /// The spread of the effects the always-valid test weighs, as a relative
  /// lift: its mixture's τ is this times the baseline's mean. `nil`: the
  /// minimum detectable effect. The test has most power near the effect it is
  /// set for; far below it finds little in the first looks, far above it
  /// loses power throughout (docs/statistics.md measures this).
  public var alwaysValidMixture: Double?
  /// The platforms' analysis engines whose results pages the report shows beside the bench's decision
  /// (docs/engines.md); none for the bench's decision alone.
  public var engines: [AnalysisEngine] = []
  /// The team's values of the engines' settings, where they differ from the platforms' defaults
  /// (`analysis.engineSettings`, `--engine-setting`).
  public var engineSettings: [AnalysisEngine: [EngineSetting: Double]] = [:]
  /// Guardrail metrics and their non-inferiority margins, as relative lifts:
  /// a variant is safe on such a metric when the data rule out a loss of the
  /// margin or more (a one-sided test at `alpha`).
  public var guardrails: [String: Double] = [:]
  /// Per metric, the smallest absolute difference of rates or means worth
  /// detecting: the power calculation's target for that metric in place of
  /// the relative `minimumDetectableEffect`. A baseline of 0 needs it, since
  /// every relative lift of 0 is 0.
  public var minimumDetectableDifferences: [String: Double] = [:]
  /// The fewest devices a variant and the baseline must each have for their
  /// comparison to carry a p-value and intervals. Below it the intervals'
  /// coverage and the tests' error rates leave their nominal values
  /// (docs/statistics.md measures where), so the bench says "too few
  /// devices" rather than print a number that does not mean what it says.
  public var minimumDevicesPerVariant = 10
  /// The metrics a variant must significantly improve (one of them) to ship,
  /// in the scenario's order. `nil`: every metric that is not a guardrail, so
  /// that a plan written before roles existed decides on what it measures.
  public var successMetrics: [String]?
  /// The one-sided level at which a success metric or guardrail that got
  /// significantly worse vetoes a ship. Small, because each such test of a
  /// metric that truly did not move vetoes a right ship with this chance
  /// (docs/statistics.md, "One decision per experiment").
  public var deteriorationAlpha = 0.01

  public static let standard = AnalysisSettings(
    alpha: 0.05, correction: .holm, attribution: .firstExposure, dailyLooks: false, minimumDetectableEffect: 0.1,
    power: 0.8)

  public init(
    alpha: Double, correction: Correction, attribution: Attribution, dailyLooks: Bool, minimumDetectableEffect: Double,
    power: Double
  ) {
    self.alpha = alpha
    self.correction = correction
    self.attribution = attribution
    self.dailyLooks = dailyLooks
    self.minimumDetectableEffect = minimumDetectableEffect
    self.power = power
  }

  /// The success metrics among `metrics` (the scenario's or a table's, in
  /// their order): those named, or every one that is not a guardrail.
  public func successMetrics(among metrics: [String]) -> [String] {
    if let successMetrics { return metrics.filter(successMetrics.contains) }
    return metrics.filter { guardrails[$0] == nil }
  }
}
