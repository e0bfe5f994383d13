import Foundation

/// The same report as one self-contained HTML file, charts inline, for
/// readers without a Markdown viewer: it converts exactly the Markdown the
/// report writes (headings, paragraphs, lists, tables, a quote, bold, code,
/// images of its own charts) and nothing else. The output is well-formed
/// XML (XHTML), so that a test can parse it.
public enum HTMLReport {
  public static func render(_ report: RenderedReport, title: String) -> String {
    var body: [String] = []
    var lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
    while let line = lines.first {
      if line.isEmpty {
        lines.removeFirst()
      } else if line.hasPrefix("#") {
        let level = line.prefix { $0 == "#" }.count
        body.append("<h\(level)>\(inline(String(line.dropFirst(level + 1))))</h\(level)>")
        lines.removeFirst()
      } else if line.hasPrefix("|") {
        body.append(table(take(&lines) { $0.hasPrefix("|") }))
      } else if line.hasPrefix("- ") {
        let items = take(&lines) { $0.hasPrefix("- ") }
        body.append("<ul>" + items.map { "<li>\(inline(String($0.dropFirst(2))))</li>" }.joined() + "</ul>")
      } else if line.hasPrefix("> ") {
        body.append("<blockquote><p>\(inline(String(line.dropFirst(2))))</p></blockquote>")
        lines.removeFirst()
      } else if line.hasPrefix("!["), let svg = chart(line, in: report) {
        // Each chart's clip path gets an id of its own: ids are unique in one document.
        let id = "plot-\(body.count)"
        body.append("<figure>" + svg.replacingOccurrences(of: "id=\"plot\"", with: "id=\"\(id)\"")
          .replacingOccurrences(of: "url(#plot)", with: "url(#\(id))") + "</figure>")
        lines.removeFirst()
      } else {
        let paragraph = take(&lines) { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("|") && !$0.hasPrefix("- ") && !$0.hasPrefix("![") }
        body.append("<p>\(paragraph.map(inline).joined(separator: " "))</p>")
      }
    }
    return """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>\(XMLText.escape(title))</title>
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

  /// The lines from the first while `belongs` holds, removed from `lines`.
  private static func take(_ lines: inout ArraySlice<String>, while belongs: (String) -> Bool) -> [String] {
    var taken: [String] = []
    while let line = lines.first, belongs(line) {
      taken.append(line)
      lines.removeFirst()
    }
    return taken
  }

  private static func cells(_ row: String) -> [String] {
    var inner = row.trimmingCharacters(in: .whitespaces)
    if inner.hasPrefix("|") { inner.removeFirst() }
    if inner.hasSuffix("|") { inner.removeLast() }
    return inner.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// A Markdown table: a header row, the alignment row, then the body.
  private static func table(_ rows: [String]) -> String {
    guard rows.count >= 2 else { return "<p>\(rows.map(inline).joined(separator: " "))</p>" }
    let header = cells(rows[0]), alignment = cells(rows[1]).map { $0.hasSuffix(":") }
    var html = "<table><thead><tr>" + header.map { "<th>\(inline($0))</th>" }.joined() + "</tr></thead><tbody>"
    for row in rows.dropFirst(2) {
      html += "<tr>" + cells(row).enumerated().map { index, cell in
        let number = index < alignment.count && alignment[index]
        return (number ? "<td class=\"number\">" : "<td>") + inline(cell) + "</td>"
      }.joined() + "</tr>"
    }
    return html + "</tbody></table>"
  }

  /// The SVG of a chart the line's image names, without its XML prolog.
  private static func chart(_ line: String, in report: RenderedReport) -> String? {
    guard let open = line.lastIndex(of: "("), line.hasSuffix(")") else { return nil }
    let file = String(line[line.index(after: open)..<line.index(before: line.endIndex)])
    return report.charts.first { $0.fileName == file }?.svg.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Escapes the text, then turns **bold** and `code` into tags.
  static func inline(_ text: String) -> String {
    var html = ""
    var bold = false, code = false
    var characters = XMLText.escape(text)[...]
    while let character = characters.first {
      if !code, characters.hasPrefix("**") {
        html += bold ? "</strong>" : "<strong>"
        bold.toggle()
        characters = characters.dropFirst(2)
        continue
      }
      if character == "`" {
        html += code ? "</code>" : "<code>"
        code.toggle()
      } else {
        html.append(character)
      }
      characters = characters.dropFirst()
    }
    if code { html += "</code>" }
    if bold { html += "</strong>" }
    return html
  }
}
