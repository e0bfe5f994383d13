import ArgumentParser
import ScenarioFormat

/// The decision rule's inputs a reader may want to change without editing
/// the scenario: they override its `analysis` section, with the scenario
/// reader's ranges.
struct AnalysisOptions: ParsableArguments {
  @Option(help: ArgumentHelp(
    "The significance level, between 0 and 0.5 (default: the scenario's analysis.alpha, else 0.05).", valueName: "alpha"))
  var alpha: Double?

  @Option(help: ArgumentHelp(
    "The smallest relative lift worth detecting, between 0.001 and 10, e.g. 0.05 for 5% (default: the scenario's "
      + "analysis.minimumDetectableEffect, else 0.1).",
    valueName: "lift"))
  var mde: Double?

  @Option(help: ArgumentHelp(
    "The chance of detecting that lift the sample must give, between 0.5 and 1 (default: the scenario's analysis.power, "
      + "else 0.8).",
    valueName: "power"))
  var power: Double?

  @Option(
    name: .customLong("success-metric"),
    help: ArgumentHelp(
      "A metric a variant must improve to ship; repeat for several (default: the scenario's analysis.successMetrics, "
        + "else every metric that is not a guardrail).",
      valueName: "metric"))
  var successMetrics: [String] = []

  @Option(
    name: .customLong("guardrail"),
    help: ArgumentHelp(
      "A metric a variant must be shown not to harm, with the largest acceptable loss as a relative lift, e.g. "
        + "revenue=0.02; repeat for several (adds to the scenario's analysis.guardrails).",
      valueName: "metric=margin"))
  var guardrails: [String] = []

  @Option(
    help: ArgumentHelp(
      "A platform's analysis engine whose results page the report shows beside the bench's decision; repeat for "
        + "several: " + AnalysisEngine.allCases.map(\.rawValue).joined(separator: ", ")
        + " (default: the scenario's analysis.engine, else bench alone; docs/engines.md).",
      valueName: "engine"))
  var engine: [String] = []

  @Option(
    name: .customLong("engine-setting"),
    help: ArgumentHelp(
      "An engine's setting in place of its platform's default, ENGINE.SETTING=VALUE, e.g. gbstats-bayesian.chanceToWin=0.9; "
        + "repeat for several (adds to the scenario's analysis.engineSettings; docs/engines.md lists each engine's).",
      valueName: "engine.setting=value"))
  var engineSettings: [String] = []

  func validate() throws {
    for name in engine where AnalysisEngine(rawValue: name) == nil {
      throw ValidationError("--engine: \(EngineListError(name: name)).")
    }
    for text in engineSettings {
      do {
        _ = try AnalysisEngine.setting(text)
      } catch {
        throw ValidationError("--engine-setting \(error).")
      }
    }
    if let alpha, !(alpha > 0 && alpha < 0.5) {
      throw ValidationError("--alpha must lie between 0 and 0.5, e.g. 0.05; got \(alpha).")
    }
    if let mde, !ScenarioLimits.minimumDetectableEffect.contains(mde) {
      throw ValidationError("--mde must lie between 0.001 and 10: a relative lift such as 0.05 for 5%; got \(mde).")
    }
    if let power, !(power > 0.5 && power < 1) {
      throw ValidationError("--power must lie between 0.5 and 1, e.g. 0.8; got \(power).")
    }
    for guardrail in guardrails where Self.guardrail(guardrail) == nil {
      throw ValidationError(
        "--guardrail takes METRIC=MARGIN with a margin between 0 and 1, e.g. --guardrail revenue=0.02 for a 2% loss; got '\(guardrail)'.")
    }
  }

  /// `settings` with the options given applied; `metrics` are the names a
  /// role may take (the scenario's or the table's metrics).
  func applied(to settings: AnalysisSettings, metrics: [String]) throws -> AnalysisSettings {
    var settings = settings
    if let alpha { settings.alpha = alpha }
    if let mde { settings.minimumDetectableEffect = mde }
    if let power { settings.power = power }
    if !engine.isEmpty {
      settings.engines = engine.compactMap(AnalysisEngine.init(rawValue:)).filter { $0 != .bench }
        .reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
    for text in engineSettings {
      let (engine, setting, value) = try AnalysisEngine.setting(text)
      settings.engineSettings[engine, default: [:]][setting] = value
    }
    func requireMetric(_ name: String, option: String) throws {
      guard metrics.contains(name) else {
        throw ValidationError(
          "\(option) \(name): no metric has that name; the metrics are \(metrics.joined(separator: ", ")).")
      }
    }
    for text in guardrails {
      let (metric, margin) = Self.guardrail(text)!
      try requireMetric(metric, option: "--guardrail")
      settings.guardrails[metric] = margin
      settings.successMetrics?.removeAll { $0 == metric }
    }
    if !successMetrics.isEmpty {
      for metric in successMetrics {
        try requireMetric(metric, option: "--success-metric")
        guard settings.guardrails[metric] == nil else {
          throw ValidationError(
            "--success-metric \(metric): it is a guardrail too; a metric either must improve or must not get worse.")
        }
      }
      settings.successMetrics = successMetrics
    }
    return settings
  }

  /// `METRIC=MARGIN` with a margin in (0, 1).
  private static func guardrail(_ text: String) -> (String, Double)? {
    guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
      let margin = NumberText.decimal(text[text.index(after: equals)...]), margin > 0, margin < 1
    else { return nil }
    return (String(text[..<equals]), margin)
  }
}
