import Foundation

/// A report as Markdown (GitHub's dialect): report.md, the file a team
/// reads in its repository or pull request. Every block is followed by a
/// blank line, so that a viewer never joins two.
public enum MarkdownReport {
  public static func render(_ document: ReportDocument) -> String {
    var lines: [String] = []
    for block in document.blocks {
      switch block {
      case .heading(let level, let text):
        lines.append(String(repeating: "#", count: level) + " " + markdown(text))
      case .paragraph(let sentences):
        lines += sentences.map { markdown($0) }
      case .list(let items):
        lines += items.map { "- " + markdown($0) }
      case .table(let table):
        lines.append(row(table.columns.map(\.title)))
        lines.append("|" + table.columns.map { $0.isNumeric ? "---:|" : "---|" }.joined())
        lines += table.rows.map(row)
      case .quote(let text):
        lines.append("> " + markdown(text))
      case .chart(let description, let fileName):
        // Brackets would end the description early.
        let alt = description.replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        lines.append("![\(alt)](\(fileName))")
      }
      lines.append("")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A table row; a `|` inside a cell is escaped so that it cannot split the cell.
  private static func row(_ cells: [ReportText]) -> String {
    "| " + cells.map { markdown($0, inTable: true) }.joined(separator: " | ") + " |"
  }

  static func markdown(_ text: ReportText, inTable: Bool = false) -> String {
    text.spans.map { span in
      let body = inTable ? span.text.replacingOccurrences(of: "|", with: "\\|") : span.text
      switch span.style {
      case .plain: return body
      case .strong: return "**\(body)**"
      case .code: return "`\(body)`"
      }
    }.joined()
  }
}
