import Foundation
import Results

/// A report as one self-contained HTML file, charts inline, for readers
/// without a Markdown viewer: report.html. The output is well-formed XML
/// (XHTML), so that a test can parse it; every text is escaped, so that no
/// name read from data can become markup.
public enum HTMLReport {
  public static func render(_ document: ReportDocument) -> String {
    var body: [String] = []
    for block in document.blocks {
      switch block {
      case .heading(let level, let text):
        body.append("<h\(level)>\(html(text))</h\(level)>")
      case .paragraph(let sentences):
        body.append("<p>\(sentences.map(html).joined(separator: " "))</p>")
      case .list(let items):
        body.append("<ul>" + items.map { "<li>\(html($0))</li>" }.joined() + "</ul>")
      case .table(let table):
        body.append(self.table(table))
      case .quote(let text):
        body.append("<blockquote><p>\(html(text))</p></blockquote>")
      case .chart(let description, let fileName):
        guard let chart = document.charts.first(where: { $0.fileName == fileName }) else {
          body.append("<p>\(XMLText.escape(description))</p>")
          continue
        }
        // Each chart's clip path gets an id of its own: ids are unique in one document.
        let id = "plot-\(body.count)"
        let svg = chart.svg.trimmingCharacters(in: .whitespacesAndNewlines)
        body.append("<figure>" + svg.replacingOccurrences(of: "id=\"plot\"", with: "id=\"\(id)\"")
          .replacingOccurrences(of: "url(#plot)", with: "url(#\(id))") + "</figure>")
      }
    }
    return """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>\(XMLText.escape(document.title))</title>
      <style>
      body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 980px; margin: 2em auto; padding: 0 1em; color: #1f2328; line-height: 1.5; }
      table { border-collapse: collapse; margin: 1em 0; display: block; overflow-x: auto; }
      th, td { border: 1px solid #d1d9e0; padding: 4px 10px; }
      th { background: #f6f8fa; }
      td.number { text-align: right; font-variant-numeric: tabular-nums; }
      blockquote { color: #59636e; border-left: 4px solid #d1d9e0; margin: 0; padding: 0 1em; }
      code { background: #f6f8fa; padding: 0 4px; border-radius: 4px; }
      figure { margin: 1em 0; }
      figure svg { max-width: 100%; height: auto; }
      </style>
      </head>
      <body>
      \(body.joined(separator: "\n"))
      </body>
      </html>

      """
  }

  private static func table(_ table: ReportTable) -> String {
    var html = "<table><thead><tr>" + table.columns.map { "<th>\(self.html($0.title))</th>" }.joined() + "</tr></thead><tbody>"
    for row in table.rows {
      html += "<tr>" + zip(table.columns, row).map { column, cell in
        (column.isNumeric ? "<td class=\"number\">" : "<td>") + self.html(cell) + "</td>"
      }.joined() + "</tr>"
    }
    return html + "</tbody></table>"
  }

  static func html(_ text: ReportText) -> String {
    text.spans.map { span in
      let body = XMLText.escape(span.text)
      switch span.style {
      case .plain: return body
      case .strong: return "<strong>\(body)</strong>"
      case .code: return "<code>\(body)</code>"
      }
    }.joined()
  }
}
