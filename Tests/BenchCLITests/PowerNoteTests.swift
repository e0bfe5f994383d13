import Analysis
import Foundation
import Platforms
import Report
import Results
import ScenarioFormat
import Simulation
import Testing

/// The power note under a metric's table names its target, and says what to
/// set where a baseline of 0 leaves a relative target with nothing to aim at.
@Suite struct PowerNoteTests {
  @Test func aZeroBaselineAsksForAnAbsoluteDifference() async throws {
    let scenario = try Scenario.load(path: committedScenario("upgrade")).scenario
    let simulator = Simulator(plan: SimulationPlan(scenario))
    var document = ResultsDocument(plan: simulator.plan, tally: await simulator.run(replication: 0, threads: 2))
    let experiment = try #require(document.experiments.firstIndex { $0.name == "SubscriptionScreenTheme" })
    let baseline = try #require(document.experiments[experiment].variants.firstIndex {
      $0.name == document.experiments[experiment].baseline
    })
    document.experiments[experiment].variants[baseline].metrics[0].conversions = 0
    document.experiments[experiment].variants[baseline].metrics[0].mean = 0
    document.experiments[experiment].variants[baseline].metrics[0].variance = 0
    func report(_ settings: AnalysisSettings) -> String {
      MarkdownReport.render(ReportDocument(ReportInput(
        document: ExperimentAnalyzer(settings: settings).analyze(document), description: "", settings: settings,
        versions: scenario.versions, source: "Simulated")))
    }
    #expect(report(scenario.analysis).contains(
      "Power: not computable, the baseline's rate is 0 and so is every relative lift of it; set "
        + "`analysis.minimumDetectableDifference` for subscribed to the smallest absolute difference worth detecting."))
    var settings = scenario.analysis
    settings.minimumDetectableDifferences = ["subscribed": 0.01]
    let text = report(settings)
    #expect(text.contains("devices per variant detect a difference of 0.01 with probability 0.8; the smallest variant has"))
    #expect(!text.contains("Power: not computable"))
  }

  /// A difference of 1e-12, inside its documented range, needs more devices
  /// than any plan has: the run finishes and the note says none reaches it,
  /// where the sample size trapped converting to Int (issue 62).
  @Test func aTinyDifferenceIsBeyondEveryPlanNotATrap() throws {
    let text = try String(contentsOfFile: committedScenario("upgrade"), encoding: .utf8)
      .replacingOccurrences(of: #""analysis": {"#, with: #""analysis": {"minimumDetectableDifference": {"subscribed": 1e-12}, "#)
    #expect(text.contains("1e-12"))
    let file = try BenchProcess.temporaryFile(text)
    let out = try temporaryFolder()
    let result = try BenchProcess.run([file, "--devices", "2000", "--replications", "2", "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("upgrade/report.md"), encoding: .utf8)
    #expect(report.contains(
      "Power: not computable for a difference of 1×10⁻¹²: it would take more than 10¹⁵ devices per variant, or the metric does not vary."))
  }
}
