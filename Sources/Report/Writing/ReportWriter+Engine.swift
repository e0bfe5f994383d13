import Results

/// The named engines' results pages beside the bench's decision (`analysis.engine`, `--engine`): one
/// section per engine, its rule, then per experiment its call and marks.
extension ReportWriter {
  mutating func writeEngineReadings() {
    let engines = document.experiments.first?.engineReadings.map(\.engine) ?? []
    for (index, engine) in engines.enumerated() {
      let read = document.experiments.compactMap { experiment in
        index < experiment.engineReadings.count ? (experiment, experiment.engineReadings[index]) : nil
      }
      guard let first = read.first?.1, first.engine == engine else { continue }
      heading(3, "\(first.title)'s page")
      paragraph(ReportText(
        "What \(first.title)'s results page shows for the same data and what it tells the team to do (docs/engines.md). "
          + first.rule))
      list(read.map { experiment, reading in item(reading, of: experiment) })
    }
  }

  /// An experiment's call and its variations' marks on one engine's page.
  private func item(_ reading: EngineReading, of experiment: ExperimentResult) -> ReportText {
    let call: ReportText = switch reading.call {
    case .ship(let variant): "\(strong: "ship \(variant)")"
    case .keepBaseline: "\(strong: "roll back to \(experiment.baseline)")"
    case .keepRunning: "no call yet"
    case .withheld: "withheld"
    }
    let variants = reading.marks.map(\.variant).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let marks = variants.map { variant in
      let metrics = reading.marks.filter { $0.variant == variant }.map { mark in
        "\(mark.metric) \(mark.status == "none" ? "not marked" : mark.status)"
          + (mark.figure.map { " (\(mark.figureName) \(Self.figure($0, named: mark.figureName)))" } ?? "")
      }
      return "\(variant): \(metrics.joined(separator: ", "))"
    }
    return "\(strong: experiment.name): \(call)." + (marks.isEmpty ? "" : " " + ReportText(marks.joined(separator: "; ") + "."))
  }

  /// A page's figure as it shows it: chances and significances as percentages, p-values as p-values.
  static func figure(_ value: Double, named name: String) -> String {
    name.hasSuffix("p-value") ? NumberFormat.pValue(value) : NumberFormat.percent(value, decimals: 1)
  }
}
