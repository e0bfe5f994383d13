import Foundation

/// The analysis a team reads its results with: the bench's own decision, or a
/// platform's engine as its results page applies it. The scenario's
/// `analysis.engine` and `--engine` name one for a report; the same
/// replications of a plan, read by several, show how often each page would
/// have told the team to ship the wrong variant (`bench compare --engines`).
/// Analysis implements each.
public enum AnalysisEngine: String, CaseIterable, Hashable, Sendable {
  /// The bench's one decision per experiment (docs/statistics.md, "One decision per experiment").
  case bench
  /// GrowthBook's default: chance to win from a Gaussian posterior of the lift (gbstats 0.8.0).
  case gbstatsBayesian = "gbstats-bayesian"
  /// GrowthBook's frequentist engine: a Welch t test of the lift.
  case gbstatsFrequentist = "gbstats-frequentist"
  /// GrowthBook's frequentist engine with sequential testing on: an always-valid mixture test.
  case gbstatsSequential = "gbstats-sequential"
  /// Spotify Confidence: z tests with group-sequential bounds towards the planned sample, alpha split
  /// over treatments and success metrics, and its risk-aware decision rule (spotify-confidence 4.1.0).
  case confidence
  /// Optimizely's Stats Engine: always-valid mSPRT p-values with false discovery rate control.
  case optimizelyStatsEngine = "optimizely-stats-engine"
  /// Eppo's default method: the lift's sequential confidence interval (a confidence sequence), read
  /// as often as the team likes.
  case eppoSequential = "eppo-sequential"

  /// The engine's name on a report.
  public var title: String {
    switch self {
    case .bench: "Lab Bench"
    case .gbstatsBayesian: "GrowthBook Bayesian"
    case .gbstatsFrequentist: "GrowthBook frequentist"
    case .gbstatsSequential: "GrowthBook sequential"
    case .confidence: "Spotify Confidence"
    case .optimizelyStatsEngine: "Optimizely Stats Engine"
    case .eppoSequential: "Eppo sequential"
    }
  }

  /// How the engine's page marks a metric and decides, in a sentence for a report, with the values of its
  /// settings in `analysis`.
  public func rule(_ analysis: AnalysisSettings) -> String {
    func value(_ setting: EngineSetting) -> Double { analysis.value(setting, for: self) }
    func percent(_ share: Double) -> String { NumberText.plain((share * 100_000).rounded() / 1000) + "%" }
    // A whole sample size in groups of three, as every count (10,000 subjects); a fraction as it is.
    func size(_ setting: EngineSetting) -> String {
      let number = value(setting)
      return number.rounded() == number && abs(number) < 1e15 ? CountText.grouped(Int(number)) : NumberText.plain(number)
    }
    let marked =
      "once one arm has \(size(.minimumSampleSize)) conversions (or an amount totalling "
      + "\(size(.minimumSampleSize))) and the change is \(percent(value(.minimumChange))) or more; a "
      + "variation ships when it won on every success metric and lost no guardrail."
    switch self {
    case .bench:
      return "The bench's one decision per experiment (docs/statistics.md)."
    case .gbstatsBayesian:
      return "A metric won when its chance to win is above \(percent(value(.chanceToWin))) and lost when below "
        + "\(percent(1 - value(.chanceToWin))), " + marked
    case .gbstatsFrequentist, .gbstatsSequential:
      return "A metric won or lost when its \(self == .gbstatsSequential ? "sequential " : "")p-value is below "
        + "\(NumberText.plain(value(.pValue))), by the lift's sign, "
        + (self == .gbstatsSequential ? "its always-valid test tuned for \(size(.tuningParameter)) devices, " : "")
        + marked
    case .confidence:
      return "Each treatment is compared with the control by a z test, success metrics for an increase and guardrails "
        + "against their margins, alpha \(NumberText.plain(value(.alpha))) split over the treatments and success metrics, "
        + "read every day against group-sequential bounds towards the planned sample; a treatment ships when a success "
        + "metric is significantly better and every guardrail significantly non-inferior, and the control stays once the "
        + "planned sample is reached without a ship."
    case .optimizelyStatsEngine:
      return "A metric is a winner or a loser when its statistical significance (always valid, adjusted for the false "
        + "discovery rate) reaches \(percent(value(.significance))); a variation ships when it is a winner on every success "
        + "metric and a loser on no guardrail."
    case .eppoSequential:
      return "A metric is significant when its lift's \(percent(value(.confidenceLevel))) sequential confidence interval "
        + "(a confidence sequence tuned for \(size(.tuningParameter)) subjects, valid however often "
        + "it is read) lies wholly above or below 0; a variation ships when it is significantly positive on every success "
        + "metric and significantly negative on no guardrail."
    }
  }

  /// The engines of a comma-separated list, such as `--engines`' value; an unknown name is an error
  /// that lists the known ones.
  public static func list(_ text: String) throws(EngineListError) -> [AnalysisEngine] {
    var engines: [AnalysisEngine] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
      guard let engine = AnalysisEngine(rawValue: name) else { throw EngineListError(name: name) }
      if !engines.contains(engine) { engines.append(engine) }
    }
    return engines
  }
}

/// An engine name that names no engine.
public struct EngineListError: Error, Sendable, CustomStringConvertible {
  public let name: String

  public init(name: String) {
    self.name = name
  }

  public var description: String {
    (name.isEmpty ? "an empty engine name" : "no engine is called '\(name)'") + "; the engines are "
      + AnalysisEngine.allCases.map(\.rawValue).joined(separator: ", ")
  }
}
