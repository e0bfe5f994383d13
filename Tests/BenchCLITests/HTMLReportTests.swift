import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `--html` writes the same report as one self-contained file: it parses as
/// XML, holds every table, heading and chart of report.md, and needs no other file.
@Suite struct HTMLReportTests {
  /// Counts elements by name, and gathers the text.
  private final class Counter: NSObject, XMLParserDelegate {
    var elements: [String: Int] = [:]
    var text = ""
    var images: [String] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      elements[name, default: 0] += 1
      if name == "img" { images.append(attributes["src"] ?? "") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      text += string
    }
  }

  @Test func theHTMLReportHoldsTheWholeReportInOneFile() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([committedScenario("upgrade"), "--devices", "3000", "--replications", "1", "--out", out.path, "--html", "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    let folder = out.appendingPathComponent("upgrade")
    let markdown = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
    let html = try Data(contentsOf: folder.appendingPathComponent("report.html"))
    let parser = XMLParser(data: html)
    let counter = Counter()
    parser.delegate = counter
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    let lines = markdown.split(separator: "\n")
    #expect(counter.elements["table"] == lines.filter { $0.hasPrefix("|---") }.count)
    #expect(counter.elements["h2"] == lines.filter { $0.hasPrefix("## ") }.count)
    #expect(counter.elements["h1"] == 1)
    let charts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".svg") }
    #expect(counter.elements["svg"] == charts.count)
    #expect(counter.elements["svg"] ?? 0 > 0)
    // Self-contained: no image or stylesheet is fetched from elsewhere.
    #expect(counter.images.isEmpty && counter.elements["link"] == nil && counter.elements["script"] == nil)
    #expect(!counter.text.contains("**") && !counter.text.contains("!["))
    #expect(counter.text.contains("What to do") && counter.text.contains("Change impact"))
    // The inline charts' clip paths have ids of their own.
    let text = String(decoding: html, as: UTF8.self)
    #expect(!text.contains("id=\"plot\""))
  }

  @Test func withoutTheFlagThereIsNoHTML() throws {
    let out = try temporaryFolder()
    #expect(try BenchProcess.run([committedScenario("deleted-variant"), "--devices", "300", "--replications", "1", "--out", out.path, "--quiet"]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("deleted-variant/report.html").path))
  }
}
