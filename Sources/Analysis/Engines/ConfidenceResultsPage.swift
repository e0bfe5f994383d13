import Results
import ScenarioFormat
import Statistics

/// Spotify Confidence's results page and its recommendation: every treatment
/// compared with the control by spotify-confidence's z test
/// (`ConfidenceZTest`, bit-exact with spotify-confidence 4.1.0; its CUPED,
/// `ZTestLinreg`, where the plan gives a metric a covariate), the success
/// metrics for an increase and the guardrails against their non-inferiority
/// margins, alpha split over treatments and success metrics only
/// ("spot-1-bonferroni"), and the decision rule of Schultzberg, Ankargren and
/// Frånberg ("Risk-aware product decisions in A/B tests with multiple
/// metrics", 2024), which Confidence implements: ship a treatment when at
/// least one success metric is significantly better and every guardrail is
/// significantly non-inferior.
///
/// Confidence asks the team for the sample it plans (its sample size
/// calculator's, which the bench's decision reproduces): with daily counts and
/// that plan, the page is a group-sequential read, every day a look whose
/// bound spends alpha by α·t² of the planned sample, so that reading it daily
/// is what the design allows. Where the documents are silent the bench
/// decides (docs/engines.md): the planned sample is the bench's decision's
/// devices per variant for each arm; a day is a look once every arm has two
/// devices; when the looks reach the planned sample without a ship the test
/// is over and the page keeps the control, as it does at any look where every
/// treatment is significantly worse on a success metric or inferior on a
/// guardrail; otherwise it keeps running. Without daily counts or a plan the
/// page reads the final counts once, at a fixed horizon.
public struct ConfidenceResultsPage: Sendable {
  /// Confidence's default: 95% intervals, alpha 0.05.
  public var intervalSize = 0.95

  public init() {}

  /// One look's comparisons, per metric and treatment, and whether the look reached the planned sample.
  struct Page {
    var comparisons: [ConfidenceZTest.Comparison]
    var plannedSampleReached: Bool
  }

  /// The experiment's metrics on the page, in its order: its success metrics, then its guardrails.
  struct Layout {
    var arms: [Int]
    var treatments: [String]
    var metricIndices: [Int]
    var metricNames: [String]
    var metrics: [ConfidenceZTest.Metric]
    var successCount: Int

    init?(_ experiment: ExperimentResult, settings: AnalysisSettings) {
      guard let baseline = experiment.variants.firstIndex(where: { $0.name == experiment.baseline }) else { return nil }
      let names = experiment.variants[baseline].metrics.map(\.name)
      let goals = settings.successMetrics(among: names), guardrails = names.filter { settings.guardrails[$0] != nil }
      guard !goals.isEmpty || !guardrails.isEmpty else { return nil }
      let treated = experiment.variants.indices.filter { $0 != baseline && experiment.variants[$0].retiredIn == nil }
      guard !treated.isEmpty else { return nil }
      arms = [baseline] + treated
      treatments = treated.map { experiment.variants[$0].name }
      metricNames = goals + guardrails
      metricIndices = metricNames.map { name in names.firstIndex(of: name)! }
      metrics = goals.map { _ in .init(preference: .increase) }
        + guardrails.map { .init(nonInferiorityMargin: settings.guardrails[$0], preference: .increase) }
      successCount = goals.count
    }

    /// The arms' summaries of the page's metrics in one day's (or the final) counts; `nil` until every
    /// arm has two devices on every metric.
    func summaries(_ metrics: [[MetricSummary]]) -> [[ConfidenceSummary]]? {
      var table: [[ConfidenceSummary]] = []
      for arm in arms {
        guard arm < metrics.count else { return nil }
        var row: [ConfidenceSummary] = []
        for index in metricIndices {
          guard index < metrics[arm].count, let summary = Self.summary(metrics[arm][index]) else { return nil }
          row.append(summary)
        }
        table.append(row)
      }
      return table
    }

    /// An arm's metric as Confidence reads it, with the metric's covariate as its CUPED feature when the
    /// plan gives it one (sums rebuilt from the means, sample variances and covariance).
    static func summary(_ metric: MetricSummary) -> ConfidenceSummary? {
      guard metric.n >= 2 else { return nil }
      var summary: ConfidenceSummary
      if metric.isConversion {
        guard let conversions = metric.conversions else { return nil }
        summary = ConfidenceSummary(n: metric.n, conversions: conversions)
      } else {
        guard let mean = metric.mean, let variance = metric.variance else { return nil }
        summary = ConfidenceSummary(n: metric.n, mean: mean, sampleVariance: variance)
      }
      if let covariate = metric.covariate, let mean = covariate.mean, let variance = covariate.variance,
        let covariance = covariate.covariance
      {
        let n = Double(metric.n), x = mean * n
        summary.feature = ConfidenceSummary.Feature(
          sum: x, sumOfSquares: variance * (n - 1) + x * x / n, crossSum: covariance * (n - 1) + x * summary.sum / n)
      }
      return summary
    }
  }

  /// The devices each comparison (control and treatment together) is planned to reach: twice the
  /// decision's devices per variant.
  static func plannedComparisonSize(_ devicesPerVariant: Int?) -> Double? {
    devicesPerVariant.flatMap { $0 > 0 ? Double(2 * $0) : nil }
  }

  /// The looks Confidence reads: every day's counts from the first on which every arm has two devices,
  /// towards the plan; the final counts once, at a fixed horizon, without daily counts or a plan.
  struct Read {
    var layout: Layout
    var test: ConfidenceZTest
    var planned: Double?
    /// The looks, with the day each is.
    var looks: [(day: Int, arms: [[ConfidenceSummary]])]

    init?(_ experiment: ExperimentResult, settings: AnalysisSettings, intervalSize: Double, devicesPerVariant: Int?) {
      guard let layout = Layout(experiment, settings: settings) else { return nil }
      self.layout = layout
      test = ConfidenceZTest(intervalSize: intervalSize)
      planned = ConfidenceResultsPage.plannedComparisonSize(devicesPerVariant)
      if planned != nil, !experiment.dailyMetrics.isEmpty {
        looks = experiment.dailyMetrics.enumerated().compactMap { day, metrics in layout.summaries(metrics).map { (day, $0) } }
      } else {
        planned = nil
        looks = layout.summaries(experiment.variants.map(\.metrics)).map { [(max(experiment.dailyMetrics.count - 1, 0), $0)] } ?? []
      }
    }

    /// Whether every comparison at `arms` has reached the planned sample.
    func reached(_ arms: [[ConfidenceSummary]]) -> Bool {
      guard let planned else { return false }
      return arms.dropFirst().allSatisfy { treated in zip(arms[0], treated).allSatisfy { Double($0.n + $1.n) >= planned } }
    }

    /// The page at the last look: the sequential read of every look, or the fixed-horizon one.
    var finalPage: Page? {
      guard let last = looks.last else { return nil }
      guard let planned else {
        return (try? test.compare(metrics: layout.metrics, arms: last.arms)).map { Page(comparisons: $0, plannedSampleReached: false) }
      }
      guard let read = try? test.compareSequentially(metrics: layout.metrics, looks: looks.map(\.arms), finalExpectedSampleSize: planned)
      else { return nil }
      return Page(comparisons: read[read.count - 1], plannedSampleReached: reached(last.arms))
    }
  }

  /// A comparison's mark in the page's words: a success metric is better or worse, a guardrail
  /// non-inferior or inferior, when significantly so.
  static func mark(_ comparison: ConfidenceZTest.Comparison, guardrail: Bool) -> String {
    if comparison.isSignificantlyBetter { return guardrail ? "non-inferior" : "better" }
    if comparison.isSignificantlyWorse { return guardrail ? "inferior" : "worse" }
    return "not significant"
  }

  /// What one look's page tells the team to do.
  func call(_ page: Page?, layout: Layout) -> EngineCall {
    guard let page else { return .keepRunning }
    var shippable: [(variant: String, lift: Double)] = []
    var rejected = 0
    for (treatment, name) in layout.treatments.enumerated() {
      let rows = page.comparisons.filter { $0.treatment == treatment + 1 }.sorted { $0.metric < $1.metric }
      let goals = rows.filter { $0.metric < layout.successCount }, guardrails = rows.filter { $0.metric >= layout.successCount }
      if goals.contains(where: \.isSignificantlyBetter) || (goals.isEmpty && !guardrails.isEmpty),
        guardrails.allSatisfy(\.isSignificantlyBetter)
      {
        shippable.append((name, goals.first?.difference ?? 0))
      }
      if rows.contains(where: \.isSignificantlyWorse) { rejected += 1 }
    }
    if let best = shippable.max(by: { $0.lift < $1.lift }) { return .ship(best.variant) }
    if rejected == layout.treatments.count || page.plannedSampleReached { return .keepBaseline }
    return .keepRunning
  }

  /// What the page tells the team to do with `experiment` at the end of the run; `devicesPerVariant` is the
  /// plan (by default the experiment's decision's).
  public func call(_ experiment: ExperimentResult, settings: AnalysisSettings, devicesPerVariant: Int? = nil) -> EngineCall {
    guard
      let read = Read(
        experiment, settings: settings, intervalSize: intervalSize,
        devicesPerVariant: devicesPerVariant ?? experiment.decision?.devicesPerVariant)
    else { return .keepRunning }
    return call(read.finalPage, layout: read.layout)
  }

  /// The first day the page, read every day towards the plan of `devicesPerVariant`, ships or keeps the
  /// control, and that call; `nil` when it never does. The same as reading each day's look of the
  /// experiment in turn with that plan, but the bounds are extended day by day instead of solved again.
  public func firstCall(_ experiment: ExperimentResult, settings: AnalysisSettings, devicesPerVariant: Int)
    -> (day: Int, call: EngineCall)?
  {
    guard let read = Read(experiment, settings: settings, intervalSize: intervalSize, devicesPerVariant: devicesPerVariant),
      let planned = read.planned
    else { return nil }
    var daily = ConfidenceZTest.SequentialRead(test: read.test, metrics: read.layout.metrics, finalExpectedSampleSize: planned)
    for look in read.looks {
      let page = (try? daily.look(look.arms)).map { Page(comparisons: $0, plannedSampleReached: read.reached(look.arms)) }
      let call = call(page, layout: read.layout)
      switch call {
      case .ship, .keepBaseline: return (look.day, call)
      case .keepRunning, .withheld: continue
      }
    }
    return nil
  }

  /// The page for `experiment`: its call, and every treatment's mark on every success metric and guardrail
  /// with the adjusted interval's lower end, relative to the control's mean.
  public func reading(_ experiment: ExperimentResult, settings: AnalysisSettings) -> EngineReading {
    let engine = AnalysisEngine.confidence
    var marks: [EngineReading.Mark] = []
    if let read = Read(experiment, settings: settings, intervalSize: intervalSize, devicesPerVariant: experiment.decision?.devicesPerVariant),
      let page = read.finalPage
    {
      let layout = read.layout
      for (treatment, name) in layout.treatments.enumerated() {
        for (metric, metricName) in layout.metricNames.enumerated() {
          guard let row = page.comparisons.first(where: { $0.treatment == treatment + 1 && $0.metric == metric }) else { continue }
          let control = experiment.variants[layout.arms[0]].metrics[layout.metricIndices[metric]].mean ?? 0
          marks.append(.init(
            variant: name, metric: metricName, status: Self.mark(row, guardrail: metric >= layout.successCount),
            figureName: "adjusted lower bound of the lift",
            figure: control != 0 ? row.adjustedInterval.lower / control : nil))
        }
      }
    }
    return EngineReading(
      engine: engine.rawValue, title: engine.title, call: call(experiment, settings: settings), marks: marks, rule: engine.rule(settings))
  }
}
