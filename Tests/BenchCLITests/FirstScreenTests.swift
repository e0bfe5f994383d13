import Analysis
import Foundation
import Platforms
import Report
import Results
import ScenarioFormat
import Simulation
import Testing

/// The report's first screen says what matters in ten seconds: what to do per
/// experiment and metric, each variant's decision, then results that
/// contradict the truth and the plan's hazards, by name.
@Suite struct FirstScreenTests {
  private func upgrade() async throws -> (document: ResultsDocument, settings: AnalysisSettings, scenario: Scenario) {
    let scenario = try Scenario.load(path: committedScenario("upgrade")).scenario
    let simulator = Simulator(plan: SimulationPlan(scenario))
    let tally = await simulator.run(replication: 0, threads: 2)
    let document = ExperimentAnalyzer(settings: scenario.analysis).analyze(ResultsDocument(plan: simulator.plan, tally: tally))
    return (document, scenario.analysis, scenario)
  }

  private func render(_ document: ResultsDocument, _ scenario: Scenario) -> String {
    MarkdownReport.render(ReportDocument(ReportInput(
      document: document, description: "", settings: scenario.analysis, versions: scenario.versions, source: "Simulated")))
  }

  /// One decision per experiment comes first: Yellow ships on subscribed at
  /// the decision's one-sided level, Dracula (deleted in 2.0) is retired and
  /// withholds nothing, OnboardingLength is withheld for its mixed arms with
  /// the attribution that would keep it readable; then the per-metric lines
  /// as the evidence, the decisions table, the red flags and the hazards.
  @Test func whatToDoComesFirstThenTheDecisionsWithTheRedFlagsAndHazardsBelow() async throws {
    let (document, _, scenario) = try await upgrade()
    let report = render(document, scenario)
    let firstScreen = try #require(report.components(separatedBy: "## What to do\n\n").last?.components(separatedBy: "\n## Subscr").first)
    let lines = firstScreen.split(separator: "\n").map(String.init)
    #expect(lines[0] == "### This run")
    #expect(lines[1] == "- **SubscriptionScreenTheme**: **Ship Yellow**: subscribed +22.6% (+6.2% to +41.4%), one-sided p = 0.0026 "
      + "below the decision's 0.0125; no success metric or guardrail significantly worse. It truly beats Blue (+8.0%): right. "
      + "Dracula is retired: the plan deleted it in 2.0, so it is not a candidate. Midnight: keep running, about 51,615 more devices per variant.")
    #expect(lines[2] == "- **OnboardingLength**: **Do not trust**: Short: 45% of Long's counted devices (5,699) were also shown "
      + "another variant. With `\"attribution\": \"exclude-contaminated\"` only the devices shown a single variant would "
      + "count, and both arms keep enough of them for a test. A variant ships when one of subscribed, revenue is better at one-sided p < 0.025 "
      + "(α = 0.05 over 2 success metrics × 1 variant).")
    #expect(lines[3].hasPrefix("One draw of the plan: `bench SCENARIO` without `--replications 1`"))
    #expect(lines[4] == "## Evidence per metric")
    #expect(lines[5].hasPrefix(
      "- **SubscriptionScreenTheme**, subscribed: **Ship Yellow**: +22.6% (+6.2% to +41.4%), adjusted p = 0.026. Dracula: do not "
        + "trust, 98% of its counted devices (5,697) were also shown another variant (its lift reads +27.2% where the truth is "
        + "−5.0%: biased upward). Midnight is inconclusive: about "))
    #expect(lines[7] == "- **OnboardingLength**, subscribed: **Do not trust**: 45% of Long's counted devices (5,699) were also shown another variant.")
    #expect(lines[9] == "## Decisions")
    #expect(lines.contains("| Variant | Metric | Decision | Lift (95% CI) | Adj. p | Truth | Right? |"))
    #expect(lines.contains("| Yellow | subscribed | **ship** | +22.6% (+6.2 to +41.4) | 0.026 | +8.0% | yes |"))
    #expect(lines.contains("| Dracula | subscribed | untrusted: 98% mixed | +27.2% (+10.0 to +47.2) | 0.0072 | −5.0% | withheld |"))
    #expect(lines.contains { $0.hasPrefix("| Midnight | subscribed | inconclusive | ") })
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

  /// Each decisions table fits GitHub's 980-pixel column, by the width model
  /// below on the characters a reader sees (bold markers are not shown).
  @Test func theDecisionTablesFit() async throws {
    let (document, _, scenario) = try await upgrade()
    let report = render(document, scenario)
    let decisions = try #require(report.components(separatedBy: "## Decisions\n").last?.components(separatedBy: "\n## ").first)
    var tables: [[[String]]] = []
    var inTable = false
    for line in decisions.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        inTable = false
        continue
      }
      if !inTable { tables.append([]) }
      inTable = true
      if !line.hasPrefix("|---") {
        tables[tables.count - 1].append(
          line.split(separator: "|").map { $0.replacingOccurrences(of: "**", with: "").trimmingCharacters(in: .whitespaces) })
      }
    }
    #expect(tables.count == 2)
    for table in tables {
      #expect(Self.pixels(table) <= 980, "\(table)")
    }
  }

  /// Midnight's band (123 devices) spans ±100%: the lift chart's axis follows
  /// the informative bands, from −20% to 60%, and marks Midnight's where it
  /// leaves the axis. Before, the axis ran from −100% to 100% and flattened
  /// every other line.
  @Test func aWideBandDoesNotSetTheLiftAxis() async throws {
    let (document, _, scenario) = try await upgrade()
    let report = ReportDocument(ReportInput(
      document: document, description: "", settings: scenario.analysis, versions: scenario.versions, source: "Simulated"))
    let svg = try #require(report.charts.first { $0.fileName == "upgrade-SubscriptionScreenTheme-subscribed-lift.svg" }?.svg)
    let ticks = svg.components(separatedBy: "text-anchor=\"end\">").dropFirst().compactMap { $0.split(separator: "<").first }
    #expect(ticks.first == "-20%" && ticks.last == "60%", "\(ticks)")
    #expect(svg.contains(">▲▼ beyond the axis</text>"))
  }

  /// Width model, on the wide side: 9.5 px a character at GitHub's 16 px
  /// font, 26 px of padding and a pixel of border per cell.
  static func pixels(_ table: [[String]]) -> Double {
    let widths = table[0].indices.map { column in table.map { $0[column].count }.max()! }
    return widths.map { Double($0) * 9.5 + 27 }.reduce(0, +)
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
    #expect(report.contains("| Variant | Metric | Decision | Lift (95% CI) | Adj. p |\n|---|---|---|---:|---:|\n"))
    #expect(!report.contains("Truth") && !report.contains("Right?"))
    #expect(!report.contains("Red flag"))
  }

  /// The change-impact tables' counts add up to the devices that made each
  /// upgrade, and each table fits GitHub's 980-pixel column (`pixels`).
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
      #expect(Self.pixels(table) <= 980, "\(table)")
    }
  }
}
