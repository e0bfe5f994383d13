import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import Report
import Results

/// The report is one model (`ReportDocument`) that Markdown and HTML each
/// render: the same blocks, each format's own marks, and no text read from
/// data ever turned into markup.
@Suite struct ReportDocumentTests {
  /// Every kind of block once, with a name that holds each format's special characters.
  private let document: ReportDocument = {
    var table = ReportTable(columns: [.init("Variant"), .init("Lift", numeric: true)])
    table.append(["a|b", "\(strong: "+5.0%")"])
    return ReportDocument(
      blocks: [
        .heading(level: 1, "Lab Bench report: x"),
        .quote(ReportText(authored: "Try `oops` and **this**.")),
        .paragraph(["First \(code: "expect").", "Second <b>&</b>."]),
        .list(["\(strong: "Ship B"): it wins.", "**not bold** stays text"]),
        .table(table),
        .chart(description: "Lift [B]", fileName: "x-lift.svg"),
      ],
      charts: [ReportChart(fileName: "x-lift.svg", svg: "<svg><clipPath id=\"plot\"/><g clip-path=\"url(#plot)\"/></svg>\n")])
  }()

  @Test func interpolationKeepsEachStyleApartAndMergesNeighbours() {
    let text: ReportText = "a \(strong: "b")\(strong: "c") \(code: "d")" + " e"
    #expect(text.spans == [
      .init(text: "a ", style: .plain), .init(text: "bc", style: .strong), .init(text: " ", style: .plain),
      .init(text: "d", style: .code), .init(text: " e", style: .plain),
    ])
    #expect(text.plainText == "a bc d e")
    #expect((["x", "\(strong: "y")"] as [ReportText]).joined(separator: ", ").plainText == "x, y")
  }

  @Test func authoredTextReadsItsMarks() {
    #expect(ReportText(authored: "a `b` **c** d").spans == [
      .init(text: "a ", style: .plain), .init(text: "b", style: .code), .init(text: " ", style: .plain),
      .init(text: "c", style: .strong), .init(text: " d", style: .plain),
    ])
    // In code, `**` is text.
    #expect(ReportText(authored: "`**`").spans == [.init(text: "**", style: .code)])
  }

  @Test func markdownWritesEachBlockFollowedByABlankLine() {
    #expect(MarkdownReport.render(document) == """
      # Lab Bench report: x

      > Try `oops` and **this**.

      First `expect`.
      Second <b>&</b>.

      - **Ship B**: it wins.
      - **not bold** stays text

      | Variant | Lift |
      |---|---:|
      | a\\|b | **+5.0%** |

      ![Lift \\[B\\]](x-lift.svg)


      """)
  }

  @Test func htmlEscapesEveryTextAndMarksOnlyTheStyledSpans() {
    let html = HTMLReport.render(document)
    #expect(html.contains("<title>Lab Bench report: x</title>"))
    #expect(html.contains("<h1>Lab Bench report: x</h1>"))
    #expect(html.contains("<blockquote><p>Try <code>oops</code> and <strong>this</strong>.</p></blockquote>"))
    #expect(html.contains("<p>First <code>expect</code>. Second &lt;b&gt;&amp;&lt;/b&gt;.</p>"))
    #expect(html.contains("<ul><li><strong>Ship B</strong>: it wins.</li><li>**not bold** stays text</li></ul>"))
    #expect(html.contains(
      "<table><thead><tr><th>Variant</th><th>Lift</th></tr></thead><tbody><tr><td>a|b</td>"
        + "<td class=\"number\"><strong>+5.0%</strong></td></tr></tbody></table>"))
    // The chart is inline, its clip path named after its place among the blocks.
    #expect(html.contains("<figure><svg><clipPath id=\"plot-5\"/><g clip-path=\"url(#plot-5)\"/></svg></figure>"))
  }

  /// Names come from data: a control character XML cannot hold becomes U+FFFD, so the XHTML report
  /// (and the SVG charts, which escape the same way) stays a file an XML parser reads; a tab stays.
  @Test func aControlCharacterInANameLeavesTheFileValidXML() throws {
    let name = "A\u{1}x\tB\u{FFFE}"
    #expect(XMLText.escape(name) == "A\u{FFFD}x\tB\u{FFFD}")
    let html = HTMLReport.render(ReportDocument(blocks: [.heading(level: 1, "Lab Bench report: x"), .paragraph([ReportText(name)])]))
    let parser = XMLParser(data: Data(html.utf8))
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(html.contains("<p>A\u{FFFD}x\tB\u{FFFD}</p>"))
  }

  @Test func aChartMissingFromTheDocumentIsNamedNotDropped() {
    let lonely = ReportDocument(blocks: [.chart(description: "Delivery <per> day", fileName: "gone.svg")])
    #expect(HTMLReport.render(lonely).contains("<p>Delivery &lt;per&gt; day</p>"))
  }

  @Test func aTableRowMustFillItsColumns() async {
    await #expect(processExitsWith: .failure) {
      var table = ReportTable(columns: [.init("One")])
      table.append(["a", "b"])
    }
  }
}
