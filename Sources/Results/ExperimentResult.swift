/// One experiment across the run.
public struct ExperimentResult: Hashable, Sendable {
  public var name: String
  public var source: String
  /// The baseline of the last version that defines the experiment with more
  /// than one variant (of the last one at all when none does).
  public var baseline: String
  /// Why `baseline` is the baseline, for an analysed events table
  /// (`AnalyticsTable.BaselineChoice`: "given with --baseline", "named as a
  /// control is", …); nil for a simulation, whose scenario says it.
  public var baselineReason: String?
  public var variants: [VariantResult]
  /// Devices shown more than one variant of the experiment.
  public var mixedDevices: Int
  public var transitions: [TransitionResult]
  /// For an experiment of a hash-bucketed service: what each change on the
  /// dashboard did to the devices it reached.
  public var changes: [ServiceChangeResult] = []
  /// For an experiment with an enrollment rule: who enrolled, and the
  /// analysis of every enrolled device, shown or not.
  public var enrollment: EnrollmentRuleResult?
  /// Per variant, the devices shown it for the first time on each day:
  /// summed over the days, the variant's `exposed`.
  public var dailyNewExposures: [[Int]]
  /// By day, variant and metric: the devices counted by the end of that day
  /// (first exposed by then), for daily looks and the report's charts; where
  /// the experiment's lift moves (novelty), at the outcomes the days up to
  /// then gave.
  public var dailyMetrics: [[[MetricSummary]]]
  /// By variant and metric: each counted device's outcome, when the raw
  /// values are at hand (an events table); empty for a simulation, which keeps
  /// sums only.
  public var rawOutcomes: [[[Double]]] = []
  /// The sample ratio mismatch check, once analysed.
  public var srm: SRMResult?
  /// One analysis per metric, once analysed.
  public var analysis: [MetricAnalysis]
  /// The one decision over the experiment's metrics, once analysed; `nil`
  /// for an experiment without metrics.
  public var decision: ExperimentDecision?
  /// The named engines' results pages, beside the decision (`analysis.engine`, `--engine`); none for the
  /// bench's decision alone.
  public var engineReadings: [EngineReading] = []

  public init(
    name: String,
    source: String,
    baseline: String,
    variants: [VariantResult],
    mixedDevices: Int,
    transitions: [TransitionResult],
    dailyNewExposures: [[Int]],
    dailyMetrics: [[[MetricSummary]]],
    srm: SRMResult?,
    analysis: [MetricAnalysis]
  ) {
    self.name = name
    self.source = source
    self.baseline = baseline
    self.variants = variants
    self.mixedDevices = mixedDevices
    self.transitions = transitions
    self.dailyNewExposures = dailyNewExposures
    self.dailyMetrics = dailyMetrics
    self.srm = srm
    self.analysis = analysis
  }
}
