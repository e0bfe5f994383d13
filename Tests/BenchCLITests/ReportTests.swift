import Foundation
import Testing

/// The reports: golden files for small scenarios, every scenario rendering,
/// and the same bytes on every run. (That the committed examples are fresh is
/// checked where the README's commands write them: scripts/check-readme.sh.)
@Suite struct ReportTests {
  private let golden = repositoryRoot.appendingPathComponent("Tests/BenchCLITests/Golden")

  private func files(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
  }

  /// Each case of Golden/cases.txt renders exactly its committed files
  /// (`make golden` rewrites them after a deliberate change).
  @Test func goldenReportsAreReproduced() throws {
    let cases = try String(contentsOf: golden.appendingPathComponent("cases.txt"), encoding: .utf8)
      .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    #expect(cases.count == 3)
    for line in cases {
      let name = line[0], out = try temporaryFolder()
      let result = try BenchProcess.run(
        [repositoryRoot.appendingPathComponent(line[1]).path] + Array(line.dropFirst(2)) + ["--out", out.path, "--quiet"])
      #expect(result.status == 0, "\(name): \(result.standardError)")
      let expectedFolder = golden.appendingPathComponent(name), actualFolder = out.appendingPathComponent(name)
      #expect(try files(in: actualFolder) == files(in: expectedFolder), "\(name)")
      for file in try files(in: expectedFolder) {
        let expected = try String(contentsOf: expectedFolder.appendingPathComponent(file), encoding: .utf8)
        let actual = try String(contentsOf: actualFolder.appendingPathComponent(file), encoding: .utf8)
        #expect(actual == expected, "\(name)/\(file) differs from the golden file: run make golden and read the diff")
      }
    }
  }

  @Test func everyScenarioRenders() throws {
    let scenarios = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("scenarios").path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(scenarios.count >= 10)
    for file in scenarios {
      let out = try temporaryFolder()
      // Two replications: the plan's section and the calibration render too, at a tenth of the default's cost.
      let result = try BenchProcess.run(
        ["scenarios/\(file)", "--devices", "300", "--replications", "2", "--out", out.path, "--quiet"], in: repositoryRoot)
      #expect(result.status == 0, "\(file): \(result.standardError)")
      let name = String(file.dropLast(".json".count))
      let report = try String(contentsOf: out.appendingPathComponent("\(name)/report.md"), encoding: .utf8)
      #expect(report.hasPrefix("# Lab Bench report: \(name)\n"), "\(file)")
      #expect(report.contains("## What to do"), "\(file)")
      #expect(report.contains("## Decisions"), "\(file)")
    }
  }

  /// A metric adjusted by its covariate says so beside its table, with the
  /// variance removed and the unadjusted figures; calibration adds the
  /// unadjusted test's rate.
  @Test func anAdjustedMetricShowsWhatCUPEDChanged() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run(["scenarios/cuped.json", "--replications", "20", "--out", out.path, "--quiet"], in: repositoryRoot)
    #expect(result.status == 0, "\(result.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("cuped/report.md"), encoding: .utf8)
    #expect(report.contains(
      "Tests: cuped-welch-t; omnibus welch-anova p = 0.0024. CUPED: lifts, p-values and chances are adjusted by each device's "
        + "pre-experiment covariate (θ = 3.70 per unit): Redesign's difference has 48% less variance; unadjusted, its lift is "
        + "+7.2% (+2.5% to +12.1%), p = 0.0024."))
    #expect(report.contains("- Checkout, revenue: adjusted by the covariate (CUPED) as above; unadjusted, significant in Redesign "))
  }

  /// The committed example says what to do first: what the plan does over
  /// its replications, then this run's one decision per experiment (ship
  /// Yellow, Dracula retired), then the per-metric evidence, where Dracula is
  /// not trusted for its contamination and nothing is withheld for Midnight's size.
  @Test func theReportStartsWithWhatToDo() throws {
    let report = try String(contentsOf: repositoryRoot.appendingPathComponent("reports/upgrade/report.md"), encoding: .utf8)
    let lines = report.split(separator: "\n", omittingEmptySubsequences: false)
    let first = try #require(lines.firstIndex(of: "## What to do"))
    #expect(lines[..<first].allSatisfy { !$0.hasPrefix("## ") })
    #expect(lines[first + 2] == "### The plan over 88 replications")
    #expect(lines[first + 6].hasPrefix("- **SubscriptionScreenTheme**: right ship "))
    let thisRun = try #require(lines.firstIndex(of: "### This run (replication 1 of 88)"))
    #expect(lines[thisRun + 2].hasPrefix("- **SubscriptionScreenTheme**: **Ship Yellow**: subscribed +22.6%"))
    #expect(lines[thisRun + 2].contains("Dracula is retired: the plan deleted it in 2.0"))
    let evidence = try #require(lines.firstIndex(of: "## Evidence per metric"))
    #expect(lines[evidence + 2].hasPrefix("- **SubscriptionScreenTheme**, subscribed: **Ship Yellow**: "))
    #expect(lines[evidence + 2].contains("Dracula: do not trust, 98% of its counted devices"))
    #expect(!report.contains("underpowered"))
    #expect(report.contains("## Change impact"))
    #expect(report.contains("brought back OnboardingLength after 2.0 removed it"))
  }
}

/// scenarios/README.md's table lists every scenario, in one block: a blank
/// line inside a Markdown table ends it on GitHub.
@Suite struct ScenarioIndexTests {
  @Test func theIndexListsEveryScenarioInOneTable() throws {
    let index = try String(contentsOf: repositoryRoot.appendingPathComponent("scenarios/README.md"), encoding: .utf8)
    let lines = index.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex { $0.hasPrefix("| file |") })
    let end = lines[start...].firstIndex { !$0.hasPrefix("|") } ?? lines.endIndex
    let rows = lines[(start + 2)..<end]
    #expect(!lines[end...].contains { $0.hasPrefix("| `") }, "a table row after the table's end")
    let listed = rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
    #expect(listed.sorted() == (try committedScenarioNames()).map { "\($0).json" })
  }
}
