import Results

/// The named engine's results page beside the bench's decision (`analysis.engine`).
extension ReportWriter {
  mutating func writeEngineReadings() {
    let read = document.experiments.filter { $0.engineReading != nil }
    guard let first = read.first?.engineReading else { return }
    heading(3, "\(first.title)'s page")
    paragraph(ReportText(
      "What \(first.title)'s results page shows for the same data and what it tells the team to do (docs/engines.md). "
        + first.rule))
    list(read.map { experiment in
      let reading = experiment.engineReading!
      let call: ReportText = switch reading.call {
      case .ship(let variant): "\(strong: "ship \(variant)")"
      case .keepBaseline: "\(strong: "roll back to \(experiment.baseline)")"
      case .keepRunning: "no call yet"
      case .withheld: "withheld"
      }
      let variants = reading.marks.map(\.variant).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
      let marks = variants.map { variant in
        let metrics = reading.marks.filter { $0.variant == variant }.map { mark in
          "\(mark.metric) \(mark.status == "none" ? "not marked" : mark.status)" + (mark.figure.map { " (\(mark.figureName) \(Self.figure($0, named: mark.figureName)))" } ?? "")
        }
        return "\(variant): \(metrics.joined(separator: ", "))"
      }
      return "\(strong: experiment.name): \(call)." + (marks.isEmpty ? "" : " " + ReportText(marks.joined(separator: "; ") + "."))
    })
  }

  /// A page's figure as it shows it: chances and significances as percentages, p-values as p-values.
  static func figure(_ value: Double, named name: String) -> String {
    name.hasSuffix("p-value") ? NumberFormat.pValue(value) : NumberFormat.percent(value, decimals: 1)
  }
}
