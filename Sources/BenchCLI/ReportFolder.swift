import Foundation
import Report
import Results

/// The folder a run or an analysis writes: the charts, then results.json,
/// then report.md, each whole, so that a failure leaves the previous report intact.
struct ReportFolder {
  let url: URL

  init(out: String, name: String) {
    url = URL(fileURLWithPath: out).appendingPathComponent(name)
  }

  /// Writes everything and returns where report.md is.
  func write(_ report: RenderedReport, document: ResultsDocument) throws -> URL {
    for chart in report.charts {
      try AtomicFile.write(chart.svg, to: url.appendingPathComponent(chart.fileName))
    }
    try AtomicFile.write(document.json.rendered(), to: url.appendingPathComponent("results.json"))
    let reportURL = url.appendingPathComponent("report.md")
    try AtomicFile.write(report.markdown, to: reportURL)
    return reportURL
  }
}
