/// A report before any format: its blocks and the SVG charts they show.
/// `MarkdownReport` and `HTMLReport` each render it; neither reads the other.
public struct ReportDocument: Sendable {
  public var blocks: [ReportBlock]
  /// The charts the blocks show, by file name (`ChartFileName`).
  public var charts: [ReportChart]

  public init(blocks: [ReportBlock] = [], charts: [ReportChart] = []) {
    self.blocks = blocks
    self.charts = charts
  }

  /// The report a team reads on an analysed run (`ReportWriter`).
  public init(_ input: ReportInput) {
    var writer = ReportWriter(input: input)
    writer.write()
    self.init(blocks: writer.blocks, charts: writer.charts)
  }

  /// The text of the report's first heading, for a window's title.
  public var title: String {
    for case .heading(_, let text) in blocks { return text.plainText }
    return ""
  }
}

/// A chart of a report: the file it is written to beside the report, and its SVG.
public struct ReportChart: Sendable, Hashable {
  public var fileName: String
  public var svg: String

  public init(fileName: String, svg: String) {
    self.fileName = fileName
    self.svg = svg
  }
}
