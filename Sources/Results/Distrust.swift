/// Why a comparison cannot be acted on, in the order docs/statistics.md
/// ranks them: what invalidates a comparison outright comes first.
public enum Distrust: Hashable, Sendable {
  /// The first exposures do not follow the configured split: the arms are
  /// not the random halves the test assumes (experiment-wide).
  case sampleRatioMismatch(pValue: Double)
  /// `share` of the counted devices of `variant` (the compared variant or
  /// the baseline) were also shown another variant of the experiment: they
  /// carry a mix of treatments, which pulls the estimate away from the
  /// variant's own effect.
  case contamination(variant: String, share: Double, devices: Int)
  /// The plan reads the test at every daily look: the final p-value is below
  /// alpha but no look crossed its alpha-spending (O'Brien–Fleming)
  /// boundary, so the significance is what peeking finds, not what the
  /// design allows. `firstDay`: the first look whose ordinary p-value fell
  /// below alpha.
  case peeking(firstDay: Int?)
  /// A compared variant has fewer devices than the minimum per variant.
  case tooFewDevices(variant: String, devices: Int, minimum: Int)
  /// The test of a variant against the baseline is undefined although both
  /// have devices: every device in both has the same value (variance 0).
  case undefinedTest(variant: String, test: String)

  /// Its rank: lower invalidates more.
  public var rank: Int {
    switch self {
    case .sampleRatioMismatch: 0
    case .contamination: 1
    case .peeking: 2
    case .tooFewDevices: 3
    case .undefinedTest: 4
    }
  }
}
