/// Who an enrollment rule enrolled in an experiment, and what counting them
/// all does to the estimate: enrolled devices that were never shown the
/// change dilute it (the "diluted" estimate), where the experiment's own
/// analysis counts the devices shown it (the "triggered" estimate).
public struct EnrollmentRuleResult: Hashable, Sendable {
  /// "allocation", "check" or "run".
  public var policy: String
  /// Per variant: the enrolled devices as a sample (`exposed` and
  /// `firstExposed` are the enrolled count), with their metrics.
  public var variants: [VariantResult]
  /// Per variant: enrolled devices that were shown the experiment.
  public var shown: [Int]
  /// Per day: devices whose precondition became true.
  public var conditionMet: [Int]
  /// Per day: devices whose precondition stopped holding; empty when it cannot.
  public var conditionLapsed: [Int] = []
  /// devtodev's handshakes by outcome, then day; empty without a handshake.
  public var handshakes: [(outcome: String, days: [Int])]
  /// On devices two users share, per day: switches to a user who had
  /// started the test (restored), and to one who had not; empty without
  /// shared devices.
  public var restoredUsers: [Int] = []
  public var newUsers: [Int] = []
  /// The analysis of the enrolled devices, once analysed.
  public var analysis: [MetricAnalysis] = []
  /// Per segment: devices on which the experiment was active, and those enrolled.
  public var segments: [(name: String, active: Int, enrolled: Int)] = []
  /// The devices on which the experiment was active but that never
  /// enrolled, as a sample (`exposed` is their count).
  public var neverEnrolled: VariantResult?
  /// The analysis a common mistake makes: the never-enrolled devices counted
  /// as the baseline, once analysed; empty when there are none.
  public var neverEnrolledAsBaselineAnalysis: [MetricAnalysis] = []
  /// The enrolled samples with the never-enrolled devices added to the
  /// baseline's: what that mistaken analysis reads.
  public var neverEnrolledAsBaseline: [VariantResult] = []

  public init(
    policy: String, variants: [VariantResult], shown: [Int], conditionMet: [Int], handshakes: [(outcome: String, days: [Int])]
  ) {
    self.policy = policy
    self.variants = variants
    self.shown = shown
    self.conditionMet = conditionMet
    self.handshakes = handshakes
  }

  public static func == (lhs: EnrollmentRuleResult, rhs: EnrollmentRuleResult) -> Bool {
    lhs.policy == rhs.policy && lhs.variants == rhs.variants && lhs.shown == rhs.shown
      && lhs.conditionMet == rhs.conditionMet && lhs.conditionLapsed == rhs.conditionLapsed && lhs.analysis == rhs.analysis
      && lhs.neverEnrolled == rhs.neverEnrolled
      && lhs.neverEnrolledAsBaselineAnalysis == rhs.neverEnrolledAsBaselineAnalysis
      && lhs.segments.map(\.name) == rhs.segments.map(\.name) && lhs.segments.map(\.active) == rhs.segments.map(\.active)
      && lhs.segments.map(\.enrolled) == rhs.segments.map(\.enrolled)
      && lhs.handshakes.map(\.outcome) == rhs.handshakes.map(\.outcome) && lhs.handshakes.map(\.days) == rhs.handshakes.map(\.days)
      && lhs.restoredUsers == rhs.restoredUsers && lhs.newUsers == rhs.newUsers
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(policy)
    hasher.combine(variants)
  }
}
