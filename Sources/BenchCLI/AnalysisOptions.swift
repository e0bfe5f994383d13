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

  func validate() throws {
    if let alpha, !(alpha > 0 && alpha < 0.5) {
      throw ValidationError("--alpha must lie between 0 and 0.5, e.g. 0.05; got \(alpha).")
    }
    if let mde, !ScenarioLimits.minimumDetectableEffect.contains(mde) {
      throw ValidationError("--mde must lie between 0.001 and 10: a relative lift such as 0.05 for 5%; got \(mde).")
    }
    if let power, !(power > 0.5 && power < 1) {
      throw ValidationError("--power must lie between 0.5 and 1, e.g. 0.8; got \(power).")
    }
  }

  /// `settings` with the options given applied.
  func applied(to settings: AnalysisSettings) -> AnalysisSettings {
    var settings = settings
    if let alpha { settings.alpha = alpha }
    if let mde { settings.minimumDetectableEffect = mde }
    if let power { settings.power = power }
    return settings
  }
}
