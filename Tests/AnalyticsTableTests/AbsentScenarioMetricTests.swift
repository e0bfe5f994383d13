import AnalyticsTable
import Foundation
import ScenarioFormat
import Testing

/// A scenario's metric that the tables do not give is an error naming it and the metrics they give,
/// never a column of zeros whose report speaks of a baseline of 0.
@Suite struct AbsentScenarioMetricTests {
  @Test func aScenarioMetricNoRowGivesIsRefused() throws {
    let events = """
      id_for_vendor,experiment,variant,reason,day
      d1,Paywall,Classic,displayed,0
      d2,Paywall,Carousel,displayed,0

      """
    var options = EventsAnalysis.Options()
    options.scenario = try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/true-effect.json").path).scenario
    let onlyConverted = "id_for_vendor,metric,value\nd1,converted,1\nd2,converted,0\n"
    #expect(throws: AnalyticsTableError.unknownMetric(
      option: "--scenario", metric: "revenue",
      reason: "is the scenario's, and no row of the tables gives it, so every device would count 0: add its rows to the outcomes table",
      known: ["converted"])) {
      try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: temporaryFile("o.csv", onlyConverted), name: "t", options: options)
    }
    // With both metrics, and with exposures alone, the analysis runs.
    let both = onlyConverted + "d1,revenue,4.5\n"
    let analysed = try EventsAnalysis(
      events: temporaryFile("e.csv", events), outcomes: temporaryFile("o.csv", both), name: "t", options: options)
    #expect(analysed.document.experiments.first?.baseline == "Classic")
    _ = try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options)
  }
}
