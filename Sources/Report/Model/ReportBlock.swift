/// One block of a report, in the order a reader meets them. Each format
/// renders every kind; none of them knows the analysis.
public enum ReportBlock: Sendable, Hashable {
  /// A title: level 1 for the report's, 2 for a section, 3 within one.
  case heading(level: Int, ReportText)
  /// Sentences read together; Markdown keeps each on its own line.
  case paragraph([ReportText])
  case list([ReportText])
  case table(ReportTable)
  /// What the plan says of itself, set apart from the bench's own words.
  case quote(ReportText)
  /// A chart of the report's `charts`, by file name, with what it shows.
  case chart(description: String, fileName: String)
}

/// A table: its columns, then one row of cells per line, each row as long as the columns.
public struct ReportTable: Sendable, Hashable {
  public struct Column: Sendable, Hashable {
    public var title: ReportText
    /// Numbers align right, so that their digits line up.
    public var isNumeric: Bool

    public init(_ title: ReportText, numeric: Bool = false) {
      self.title = title
      self.isNumeric = numeric
    }
  }

  public var columns: [Column]
  public var rows: [[ReportText]] = []

  public init(columns: [Column]) {
    self.columns = columns
  }

  /// Adds a row; it must have a cell for each column.
  public mutating func append(_ row: [ReportText]) {
    precondition(row.count == columns.count, "a report table's row has \(row.count) cells for \(columns.count) columns")
    rows.append(row)
  }
}
