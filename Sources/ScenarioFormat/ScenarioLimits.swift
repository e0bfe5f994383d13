/// The largest plan a scenario may describe, chosen so that no count,
/// product or table downstream can overflow or trap. docs/scenarios.md and
/// docs/scenario.schema.json state the same bounds.
///
/// The derivations: a device launches at most 16 times a day (once, unless
/// its segment has sessions), so a day's launches are at most 16 × `devices`
/// and a run's total at most 16 × 10⁹ × 3,660 < 2⁴⁶, below 2⁶³ even summed
/// over 10⁵ replications. Tables indexed by version pairs
/// hold 100² cells per experiment, and per-day tables days × variants cells
/// per experiment, so memory grows with the plan's size and stays bounded.
public enum ScenarioLimits {
  /// A scenario file's bytes: the largest plan the limits below allow fits in
  /// a few megabytes, and the JSON reader holds about ten times a file's size,
  /// so a larger file (or an endless standard input) is refused before it is read.
  public static let fileBytes = 16 << 20

  /// Virtual devices per run: a billion is days of machine time, already
  /// refused by the run's estimate unless asked for.
  public static let devices: ClosedRange<Int> = 1...1_000_000_000

  /// Replications of one run (`--replications`): with `devices`, what keeps
  /// every count of a run, and of a part's header, far from overflowing.
  public static let replications: ClosedRange<Int> = 1...100_000

  /// Days a run lasts: ten years.
  public static let days: ClosedRange<Int> = 1...3_660

  /// App versions in a plan.
  public static let versions: ClosedRange<Int> = 1...100

  /// Experiments one version lists.
  public static let experiments: ClosedRange<Int> = 0...64

  /// Variants per experiment: each is a bit of a device's exposure mask,
  /// which is 64 bits wide.
  public static let variants: ClosedRange<Int> = 1...64

  /// Keys per experiment.
  public static let keys: ClosedRange<Int> = 1...64

  /// Changes in the remote or the service timeline.
  public static let changes: ClosedRange<Int> = 0...10_000
  /// A plan's expectations (`expect`).
  public static let expectations: ClosedRange<Int> = 0...1_000

  /// Feature flags of the service.
  public static let flags: ClosedRange<Int> = 0...64

  /// A count of an install schedule: a trillion devices is far beyond any
  /// app's, and a run's days of them sum far inside a double's exact range.
  public static let installCount: ClosedRange<Double> = 0...1e12

  /// The mean launches of an active day: 1 + a Poisson count, at most 16 a
  /// day (see above); apps' sessions per active day are a few.
  public static let launchesPerActiveDay: ClosedRange<Double> = 1...6

  /// A weekday's factor on the daily activity probability.
  public static let weekdayFactor: ClosedRange<Double> = 0...10

  /// A beta distribution's concentration: α and β of at least 0.01, the
  /// gamma sampler's smallest shape, and at most 10⁴, where every device's
  /// probability is all but the mean.
  public static let concentration: ClosedRange<Double> = 0.02...10_000

  /// Population segments and metrics.
  public static let segments: ClosedRange<Int> = 1...64
  public static let metrics: ClosedRange<Int> = 0...64

  /// A variant's weight: 64 variants of at most 10⁹ stay far below the 2⁶²
  /// a weighted draw and `describe`'s shares multiply within.
  public static let weight: ClosedRange<Int> = 1...1_000_000_000

  /// A relative lift: from just above -100% to +1,000%. Above, a lift is
  /// far more likely a percentage written as a fraction's place (30 for 30%).
  public static let liftUpperBound = 10.0

  /// A gamma distribution's shape. Its variance is the squared mean over the
  /// shape, so a shape near 0 overflows it (5e-324 trapped the sampler);
  /// 0.01 already spreads amounts with a coefficient of variation of 10, and
  /// above 10⁴ the amount is all but constant.
  public static let gammaShape: ClosedRange<Double> = 0.01...10_000

  /// The fewest devices a compared variant must have: Welch's test needs 2,
  /// and a minimum above a million would withhold almost every real test.
  public static let minimumDevicesPerVariant: ClosedRange<Int> = 2...1_000_000

  /// A metric's covariate correlation. At ±1 the covariate would be the
  /// outcome itself and every adjusted variance 0; 0.99 already removes 98%
  /// of the variance, more than any real pre-experiment measure does.
  public static let covariateCorrelation: ClosedRange<Double> = -0.99...0.99

  /// A metric's quantiles: at most 8, each from 0.01 to 0.99. Beyond, the
  /// interval of a quantile needs hundreds of devices in its tail before it
  /// exists, and a table of more would be unreadable.
  public static let quantile: ClosedRange<Double> = 0.01...0.99
  public static let quantiles: ClosedRange<Int> = 1...8

  /// The percentile a metric is winsorized at: from 0.5 (capping half the
  /// devices would compare medians, which `quantiles` does directly) to 0.999.
  public static let winsorize: ClosedRange<Double> = 0.5...0.999
  /// A novelty's half-life in days: from a tenth of a day (gone by the next)
  /// to ten years (the longest run: a lift that never settles within it).
  public static let halfLifeDays: ClosedRange<Double> = 0.1...3660

  /// The relative lift a power calculation targets: 0.1% to 1,000%. Below,
  /// the sample it asks for exceeds any count a run can hold.
  public static let minimumDetectableEffect: ClosedRange<Double> = 0.001...10

  /// Days of adoption delay and launches before stabilizing.
  public static let meanDelayDays: ClosedRange<Double> = 0...3_660
  public static let stabilizeOnLaunch: ClosedRange<Int> = 1...100_000

  /// Seconds a fetch may take or wait.
  public static let seconds: ClosedRange<Double> = 0.001...86_400
}
