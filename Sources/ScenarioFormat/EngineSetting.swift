/// A setting of a platform's results page that a team may change from the
/// platform's default, as its settings screen allows: GrowthBook's chance to
/// win threshold, Optimizely's significance, Confidence's alpha, Eppo's
/// confidence level. The scenario's
/// `analysis.engineSettings` and `--engine-setting` set them; each engine's
/// page reads its own (docs/engines.md).
public enum EngineSetting: String, CaseIterable, Hashable, Sendable {
  /// GrowthBook Bayesian: the chance to win above which a metric won (and below 1 − it, lost).
  case chanceToWin
  /// GrowthBook frequentist and sequential: the p-value below which a metric won or lost.
  case pValue
  /// GrowthBook: the value (conversions or amount's total) one arm must reach before a metric is marked.
  case minimumSampleSize
  /// GrowthBook: relative changes smaller than this are a draw.
  case minimumChange
  /// GrowthBook sequential and Eppo sequential: the tuning parameter of the always-valid test (the
  /// sample it is tuned for).
  case tuningParameter
  /// Confidence: the significance level, split over treatments and success metrics.
  case alpha
  /// Optimizely: the statistical significance at which a result is conclusive.
  case significance
  /// Eppo: the confidence level of its intervals.
  case confidenceLevel

  /// The default of `engine`'s platform: the same on every page that reads the setting but the
  /// tuning parameter, GrowthBook's 5,000 and Eppo's 10,000.
  public func standard(for engine: AnalysisEngine) -> Double {
    switch self {
    case .chanceToWin: 0.95
    case .pValue: 0.05
    case .minimumSampleSize: 150
    case .minimumChange: 0.005
    case .tuningParameter: engine == .eppoSequential ? 10_000 : 5000
    case .alpha: 0.05
    case .significance: 0.90
    case .confidenceLevel: 0.95
    }
  }

  /// The values the bench accepts.
  public var range: ClosedRange<Double> {
    switch self {
    case .chanceToWin, .significance, .confidenceLevel: 0.5...0.9999
    case .pValue, .alpha: 0.0001...0.5
    case .minimumSampleSize: 0...1e9
    case .minimumChange: 0...1
    case .tuningParameter: 1...1e9
    }
  }
}

extension AnalysisEngine {
  /// The settings the engine's page reads, in the order its documentation lists them.
  public var settings: [EngineSetting] {
    switch self {
    case .bench: []
    case .gbstatsBayesian: [.chanceToWin, .minimumSampleSize, .minimumChange]
    case .gbstatsFrequentist: [.pValue, .minimumSampleSize, .minimumChange]
    case .gbstatsSequential: [.pValue, .minimumSampleSize, .minimumChange, .tuningParameter]
    case .confidence: [.alpha]
    case .optimizelyStatsEngine: [.significance]
    case .eppoSequential: [.confidenceLevel, .tuningParameter]
    }
  }

  /// Reads `ENGINE.SETTING=VALUE`, as `--engine-setting` takes it; the error names what is wrong and what
  /// is accepted.
  public static func setting(_ text: String) throws(EngineSettingError) -> (engine: AnalysisEngine, setting: EngineSetting, value: Double) {
    guard let equals = text.firstIndex(of: "="), let dot = text[..<equals].lastIndex(of: ".") else {
      throw EngineSettingError(text: text, problem: "takes ENGINE.SETTING=VALUE, e.g. gbstats-bayesian.chanceToWin=0.9")
    }
    let engineName = String(text[..<dot]), settingName = String(text[text.index(after: dot)..<equals])
    guard let engine = AnalysisEngine(rawValue: engineName) else {
      throw EngineSettingError(text: text, problem: EngineListError(name: engineName).description)
    }
    guard let setting = EngineSetting(rawValue: settingName), engine.settings.contains(setting) else {
      let known = engine.settings.map(\.rawValue)
      throw EngineSettingError(
        text: text,
        problem: known.isEmpty
          ? "\(engine.rawValue) has no settings"
          : "\(engine.rawValue) has no setting '\(settingName)'; its settings are \(known.joined(separator: ", "))")
    }
    guard let value = NumberText.decimal(text[text.index(after: equals)...]), setting.range.contains(value)
    else {
      throw EngineSettingError(
        text: text,
        problem: "\(setting.rawValue) must be a number between \(NumberText.plain(setting.range.lowerBound)) and "
          + "\(NumberText.plain(setting.range.upperBound)) (\(engine.rawValue)'s default: \(NumberText.plain(setting.standard(for: engine))))")
    }
    return (engine, setting, value)
  }
}

/// An `--engine-setting` that names no engine's setting or gives it a value outside its range.
public struct EngineSettingError: Error, Sendable, CustomStringConvertible {
  public let text: String
  public let problem: String

  public var description: String { "'\(text)': \(problem)" }
}

extension AnalysisSettings {
  /// The value of `setting` on `engine`'s page: the team's, else the platform's default.
  public func value(_ setting: EngineSetting, for engine: AnalysisEngine) -> Double {
    engineSettings[engine]?[setting] ?? setting.standard(for: engine)
  }
}
