import Analysis
import Foundation
import Report
import Results
import ScenarioFormat
import Simulation
import Testing

/// The report's first screen says what matters in ten seconds: a verdict per
/// experiment and metric, then results that contradict the truth and the
/// plan's hazards, by name.
@Suite struct FirstScreenTests {
  private func upgrade() async throws -> (document: ResultsDocument, settings: AnalysisSettings, scenario: Scenario) {
    let scenario = try Scenario.load(path: committedScenario("upgrade")).scenario
    let simulator = Simulator(plan: SimulationPlan(scenario))
    let tally = await simulator.run(replication: 0, threads: 2)
    let document = ExperimentAnalyzer(settings: scenario.analysis).analyze(ResultsDocument(plan: simulator.plan, tally: tally))
    return (document, scenario.analysis, scenario)
  }

  private func render(_ document: ResultsDocument, _ scenario: Scenario) -> String {
    MarkdownReport.render(ReportInput(
      document: document, description: "", settings: scenario.analysis, versions: scenario.versions, source: "Simulated")).markdown
  }

  @Test func theVerdictsAreATableWithTheRedFlagsAndHazardsBelow() async throws {
    let (document, _, scenario) = try await upgrade()
    let report = render(document, scenario)
    let verdicts = try #require(report.components(separatedBy: "## Verdicts\n\n").last?.components(separatedBy: "\n## ").first)
    let lines = verdicts.split(separator: "\n").map(String.init)
    #expect(lines[0] == "| Experiment | Metric | Verdict | Winner | Lift (95% CI) | Right? | Why |")
    #expect(lines.count(where: { $0.hasPrefix("| SubscriptionScreenTheme | ") || $0.hasPrefix("| OnboardingLength | ") }) == 4)
    #expect(lines.contains(
      "| OnboardingLength | revenue | no winner | none | Short: +2.0% (−1.5% to +5.7%) | yes | – |"))
    // The sign error the issue saw: significant +27.2% where the truth is −5%.
    #expect(lines.contains(
      "- **Red flag, sign error**: SubscriptionScreenTheme, subscribed: Dracula is significant (+27.2%, p = 0.0072) but its true lift is −5.0%."))
    #expect(lines.contains(
      "- **Hazard**: 4,531 devices (9.1%) met OnboardingLength and SubscriptionScreenTheme on the shared key `paywallTitle`: "
        + "the manager served one and discarded the other's variant."))
    // Hazards come largest first.
    let hazards = lines.filter { $0.hasPrefix("- **Hazard**") }
    #expect(hazards.first?.hasPrefix("- **Hazard**: 44.9% of OnboardingLength's devices") == true)
    #expect(hazards.count == 3)
  }

  @Test func aSignificantResultWhereTheTruthIsZeroIsAFalsePositive() async throws {
    var (document, _, scenario) = try await upgrade()
    let experiment = try #require(document.experiments.firstIndex { $0.name == "SubscriptionScreenTheme" })
    let comparison = try #require(document.experiments[experiment].analysis[0].comparisons.firstIndex { $0.variant == "Dracula" })
    document.experiments[experiment].analysis[0].comparisons[comparison].trueLift = 0
    let report = render(document, scenario)
    #expect(report.contains(
      "- **Red flag, false positive**: SubscriptionScreenTheme, subscribed: Dracula is significant (+27.2%, p = 0.0072) but its true lift is 0.\n"))
    #expect(!report.contains("Red flag, sign error"))
  }

  /// A table has no truth: no "Right?" column and no red flags.
  @Test func anAnalysedTableHasNoTruthColumn() async throws {
    var (document, _, scenario) = try await upgrade()
    for experiment in document.experiments.indices {
      for analysis in document.experiments[experiment].analysis.indices {
        document.experiments[experiment].analysis[analysis].knowsTruth = false
      }
    }
    let report = render(document, scenario)
    #expect(report.contains("| Experiment | Metric | Verdict | Winner | Lift (95% CI) | Why |\n|---|---|---|---|---:|---|\n"))
    #expect(!report.contains("Red flag"))
  }

  /// The change-impact tables' counts add up to the devices that made each
  /// upgrade, and each table fits GitHub's 980-pixel column. Width model, on
  /// the wide side: 9.5 px a character at GitHub's 16 px font, 26 px of
  /// padding and a pixel of border per cell.
  @Test func theChangeImpactTablesAddUpAndFit() async throws {
    let (document, _, scenario) = try await upgrade()
    let report = render(document, scenario)
    let impact = try #require(report.components(separatedBy: "## Change impact\n").last?.components(separatedBy: "\n## ").first)
    let rows = impact.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Upgrade") }
      .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    #expect(rows.count == document.experiments.flatMap { $0.transitions.filter { $0.kept + $0.reassigned + $0.deactivated + $0.activated > 0 } }.count)
    for row in rows {
      let counts = row[1...6].map { Int($0.replacingOccurrences(of: ",", with: ""))! }
      #expect(counts[1...].reduce(0, +) == counts[0], "\(row)")
      #expect(counts.allSatisfy { $0 >= 0 })
    }
    var tables: [[[String]]] = []
    for line in impact.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else { continue }
      if line.hasPrefix("| Upgrade") { tables.append([]) }
      if !line.hasPrefix("|---") { tables[tables.count - 1].append(line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }) }
    }
    #expect(tables.count == 2)
    for table in tables {
      let widths = table[0].indices.map { column in table.map { $0[column].count }.max()! }
      let pixels = widths.map { Double($0) * 9.5 + 27 }.reduce(0, +)
      #expect(pixels <= 980, "\(pixels) px: \(widths)")
    }
  }
}
