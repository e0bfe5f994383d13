import AtomicOutput
import Foundation
import Report
import Results

/// The folder a run or an analysis writes: the charts, results.json and
/// report.md (and report.html when asked), staged and swapped in as one unit
/// (`StagedFolder`), so that a failure or a kill leaves the previous report whole.
struct ReportFolder {
  let url: URL
  /// Also write report.html, the same report in one self-contained file.
  var html = false

  init(out: String, name: String, html: Bool = false) {
    url = URL(fileURLWithPath: out).appendingPathComponent(name)
    self.html = html
  }

  /// Whether `path` lies in the folder (or is it), symbolic links resolved
  /// as far as they exist: a file written there would go when the folder is
  /// swapped.
  func contains(_ path: String) -> Bool {
    func components(_ url: URL) -> [String] {
      url.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    }
    let folder = components(url), file = components(URL(fileURLWithPath: path))
    return file.count >= folder.count && Array(file.prefix(folder.count)) == folder
  }

  /// Writes everything and returns where report.md is.
  func write(_ report: ReportDocument, document: ResultsDocument) throws -> URL {
    try Self.stage(at: url) { folder throws(OutputError) in
      try Self.add(report, document: document, under: "", html: html, to: &folder)
    }
    return url.appendingPathComponent("report.md")
  }

  /// Adds one report's files to a staged folder, under `prefix` ("" or "name/").
  static func add(
    _ report: ReportDocument, document: ResultsDocument, under prefix: String, html: Bool = false,
    to folder: inout StagedFolder
  ) throws(OutputError) {
    for chart in report.charts {
      try folder.write(chart.svg, to: prefix + chart.fileName)
    }
    var document = document
    document.benchVersion = Bench.configuration.version
    try folder.write(document.json.rendered(), to: prefix + "results.json")
    try folder.write(MarkdownReport.render(report), to: prefix + "report.md")
    if html {
      try folder.write(HTMLReport.render(report), to: prefix + "report.html")
    }
  }

  /// Stages the folder at `url`, lets `fill` write into it, and swaps it in;
  /// on any error the previous folder stays as it was.
  static func stage(at url: URL, _ fill: (inout StagedFolder) throws(OutputError) -> Void) throws(OutputError) {
    var folder = try StagedFolder(target: url)
    do {
      try fill(&folder)
    } catch {
      folder.discard()
      throw error
    }
    try folder.commit()
  }
}
