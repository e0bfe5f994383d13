import Foundation
import Testing

/// docs/results.schema.json describes every results.json the bench writes:
/// each committed scenario's, a run with replications (calibration) and an
/// analysis of an events table.
@Suite struct ResultsSchemaTests {
  private static let schema = repositoryRoot.appendingPathComponent("docs/results.schema.json")

  private func expectValid(_ results: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let check = try JSONSchemaCheck(schema: Data(contentsOf: Self.schema))
    let problems = try check.problems(in: Data(contentsOf: results))
    #expect(problems.isEmpty, "\(results.path): \(problems.prefix(5))", sourceLocation: sourceLocation)
  }

  @Test(arguments: try committedScenarioNames())
  func everyScenariosResultsFollowTheSchema(name: String) throws {
    let out = try temporaryFolder()
    // Two replications, so that each scenario's calibration (with its decisions) meets the schema too.
    let result = try BenchProcess.run([committedScenario(name), "--devices", "600", "--replications", "2", "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    try expectValid(out.appendingPathComponent("\(name)/results.json"))
    // The first screen (what to do, the evidence and the decisions tables) fits GitHub's 980-pixel column.
    let report = try String(contentsOf: out.appendingPathComponent("\(name)/report.md"), encoding: .utf8)
    let firstScreen = try #require(report.components(separatedBy: "## What to do\n").last)
    let decisions = firstScreen.components(separatedBy: "\n## Decisions\n")
    let end = decisions.count > 1 ? decisions[0] + (decisions[1].components(separatedBy: "\n## ").first ?? "") : decisions[0]
    let rows = end.split(separator: "\n").filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }
    var tables: [[[String]]] = []
    var previous = ""
    for row in rows {
      let cells = row.split(separator: "|").map { $0.replacingOccurrences(of: "**", with: "").trimmingCharacters(in: .whitespaces) }
      if row.hasPrefix("| Variant") || previous.isEmpty { tables.append([]) }
      tables[tables.count - 1].append(cells)
      previous = String(row)
    }
    for table in tables {
      #expect(FirstScreenTests.pixels(table) <= 980, "\(name): \(table.first ?? [])")
    }
  }

  @Test func calibrationAndAnAnalysedTableFollowTheSchema() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path
    for arguments in [
      [committedScenario("peeking"), "--devices", "400", "--replications", "3", "--out", out.path],
      [committedScenario("upgrade"), "--devices", "2000", "--replications", "1", "--events", events, "--out", out.appendingPathComponent("run").path],
      ["analyze", events, "--outcomes", out.appendingPathComponent("events-outcomes.csv").path, "--out", out.path],
    ] {
      let result = try BenchProcess.run(arguments + ["--quiet"])
      #expect(result.status == 0, "\(result.standardError)")
    }
    try expectValid(out.appendingPathComponent("peeking/results.json"))
    try expectValid(out.appendingPathComponent("events-analyze/results.json"))
    let analysed = try String(contentsOf: out.appendingPathComponent("events-analyze/results.json"), encoding: .utf8)
    #expect(analysed.contains(#""formatVersion": 1"#))
  }

  /// The check itself finds what it should: a missing field, a wrong type, an
  /// undescribed field.
  @Test func theCheckFindsBrokenFiles() throws {
    let check = try JSONSchemaCheck(schema: Data(contentsOf: Self.schema))
    let out = try temporaryFolder()
    #expect(try BenchProcess.run([committedScenario("aa-test"), "--devices", "200", "--out", out.path, "--quiet"]).status == 0)
    let good = try String(contentsOf: out.appendingPathComponent("aa-test/results.json"), encoding: .utf8)
    #expect(try check.problems(in: Data(good.utf8)).isEmpty)
    let broken = good.replacingOccurrences(of: #""devices": 200"#, with: #""devices": "200""#)
      .replacingOccurrences(of: #""launches""#, with: #""launchez""#)
    #expect(try Set(check.problems(in: Data(broken.utf8))) == [
      "$.devices: is string, not integer", "$: lacks launches", "$: has launchez, which the schema does not describe",
    ])
  }
}
