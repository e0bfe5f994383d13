import Lab
import Results
import ScenarioFormat

/// Writes the report a team reads, as blocks (`ReportDocument`): what to
/// do first, then per experiment the numbers behind it, what each app
/// version's changes did to devices and why, charts, and with replications
/// how often the analysis is right. Knows no format.
struct ReportWriter {
  let input: ReportInput
  private(set) var blocks: [ReportBlock] = []
  var charts: [ReportChart] = []

  var document: ResultsDocument { input.document }
  var confidence: String { NumberFormat.trim(percent: 1 - input.settings.alpha) }

  init(input: ReportInput) {
    self.input = input
  }

  mutating func write() {
    heading(1, "Lab Bench report: \(document.scenario)")
    if !input.description.isEmpty {
      blocks.append(.quote(ReportText(authored: input.description)))
    }
    let correction = switch input.settings.correction {
    case .none: "no correction"
    case .holm: "Holm correction"
    case .benjaminiHochberg: "Benjamini–Hochberg correction"
    }
    paragraph(ReportText(
      "\(input.source): \(NumberFormat.count(document.devices)) devices over \(document.days) day\(document.days == 1 ? "" : "s")"
        + (document.seed.map { ", seed \($0)" } ?? "")
        + (document.replications > 1 ? ", \(NumberFormat.count(document.replications)) replications" : "")
        + ". Alpha \(NumberFormat.trim(input.settings.alpha)), \(correction), \(input.settings.attribution.rawValue) attribution, "
        + "\(confidence) intervals."))
    for missing in document.missingProperties ?? [] where missing.withoutProperty > 0 {
      paragraph(ReportText(
        "\(NumberFormat.count(missing.withoutProperty)) of \(NumberFormat.count(missing.events)) \(missing.event) events have no "
          + "\(missing.property): each counts for \(missing.metric) and adds 0 to it, as SQL's SUM does."))
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

  // MARK: - Blocks

  mutating func heading(_ level: Int, _ text: ReportText) {
    blocks.append(.heading(level: level, text))
  }

  /// A paragraph of one or more sentences; none is no paragraph.
  mutating func paragraph(_ sentences: ReportText...) {
    paragraph(sentences)
  }

  mutating func paragraph(_ sentences: [ReportText]) {
    guard !sentences.isEmpty else { return }
    blocks.append(.paragraph(sentences))
  }

  /// A list; one without items is not written.
  mutating func list(_ items: [ReportText]) {
    guard !items.isEmpty else { return }
    blocks.append(.list(items))
  }

  mutating func table(_ table: ReportTable) {
    blocks.append(.table(table))
  }

  mutating func append(_ more: [ReportBlock]) {
    blocks += more
  }

  /// Adds `chart` to the report's charts under a safe file name made of
  /// `parts` (`ChartFileName`), shown where the blocks have reached.
  mutating func chart(_ chart: LineChart, description: String, named parts: [String], suffix: String) {
    let fileName = ChartFileName.make(parts, suffix: suffix)
    charts.append(ReportChart(fileName: fileName, svg: chart.svg))
    blocks.append(.chart(description: description, fileName: fileName))
  }
}
