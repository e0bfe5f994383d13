import Lab
import Results
import ScenarioFormat

/// Writes the report a team reads: what to do first, then per experiment
/// the numbers behind them, what each app version's changes did to devices
/// and why, charts, and with replications how often the analysis is right.
public enum MarkdownReport {
  public static func render(_ input: ReportInput) -> RenderedReport {
    var writer = ReportWriter(input: input)
    writer.write()
    return RenderedReport(markdown: writer.lines.joined(separator: "\n") + "\n", charts: writer.charts)
  }

  /// A lift with its interval, marked † when the interval and the test
  /// disagree and ‡ when an arm is too small for the amount's skewness.
  static func liftCell(_ comparison: Comparison, alpha: Double) -> String {
    if comparison.liftIsUnbounded { return "unbounded (baseline 0)" }
    if comparison.tooFewDevices { return "\(NumberFormat.signedPercent(comparison.lift)) (too few devices)" }
    guard let interval = comparison.liftInterval else { return NumberFormat.signedPercent(comparison.lift) }
    return "\(NumberFormat.signedPercent(comparison.lift)) "
      + "(\(NumberFormat.signedPercent(interval.lower)) to \(NumberFormat.signedPercent(interval.upper)))"
      + (disagrees(comparison, alpha: alpha) ? " †" : "") + (comparison.skewWarning != nil ? " ‡" : "")
  }

  /// A lift with its interval in as few characters as a table cell allows:
  /// "+22.6% (+6.2 to +41.4)".
  static func shortLiftCell(_ comparison: Comparison) -> String {
    if comparison.liftIsUnbounded { return "unbounded" }
    let lift = NumberFormat.signedPercent(comparison.lift)
    guard let interval = comparison.liftInterval, !comparison.tooFewDevices else { return lift }
    func bound(_ value: Double) -> String {
      let text = NumberFormat.signedPercent(value)
      return text.hasSuffix("%") ? String(text.dropLast()) : text
    }
    return "\(lift) (\(bound(interval.lower)) to \(bound(interval.upper)))" + (comparison.skewWarning != nil ? " ‡" : "")
  }

  /// Whether the lift interval and the test disagree: the interval excludes
  /// no lift while the test's p-value is at or above alpha, or the reverse.
  /// They are computed by different methods (a ratio interval, a z or t test
  /// of the difference) and can part at the margin; the test decides.
  static func disagrees(_ comparison: Comparison, alpha: Double) -> Bool {
    guard let interval = comparison.liftInterval, let p = comparison.test.pValue else { return false }
    return (interval.lower > 0 || interval.upper < 0) != (p < alpha)
  }
}

struct ReportWriter {
  let input: ReportInput
  var lines: [String] = []
  var charts: [(fileName: String, svg: String)] = []

  var document: ResultsDocument { input.document }
  var confidence: String { NumberFormat.trim(percent: 1 - input.settings.alpha) }

  init(input: ReportInput) {
    self.input = input
  }

  mutating func write() {
    lines.append("# Lab Bench report: \(document.scenario)")
    lines.append("")
    if !input.description.isEmpty {
      lines.append("> \(input.description)")
      lines.append("")
    }
    let correction = switch input.settings.correction {
    case .none: "no correction"
    case .holm: "Holm correction"
    case .benjaminiHochberg: "Benjamini–Hochberg correction"
    }
    lines.append(
      "\(input.source): \(NumberFormat.count(document.devices)) devices over \(document.days) day\(document.days == 1 ? "" : "s")"
        + (document.seed.map { ", seed \($0)" } ?? "")
        + (document.replications > 1 ? ", \(NumberFormat.count(document.replications)) replications" : "")
        + ". Alpha \(NumberFormat.trim(input.settings.alpha)), \(correction), \(input.settings.attribution.rawValue) attribution, "
        + "\(confidence) intervals.")
    lines.append("")
    for missing in document.missingProperties ?? [] where missing.withoutProperty > 0 {
      lines.append(
        "\(NumberFormat.count(missing.withoutProperty)) of \(NumberFormat.count(missing.events)) \(missing.event) events have no "
          + "\(missing.property): each counts for \(missing.metric) and adds 0 to it, as SQL's SUM does.")
      lines.append("")
    }
    writeDecisions()
    writeExpectations()
    for experiment in document.experiments {
      writeExperiment(experiment)
    }
    writeChangeImpact()
    writeEnrollment()
    if let delivery = document.delivery { writeDelivery(delivery) }
    if let calibration = document.calibration { writeCalibration(calibration) }
  }
}
