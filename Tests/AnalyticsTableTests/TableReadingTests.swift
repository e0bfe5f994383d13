import Analysis
import AnalyticsTable
import Foundation
import Results
import ScenarioFormat
import Simulation
import Statistics
import Testing

@Suite struct TableReadingTests {
  private let events = """
    value,key,variant,experiment,source,reason,id_for_vendor,day
    blue,color,A,Theme,Local,activated,d1,0
    blue,color,A,Theme,Local,displayed,d1,0
    red,color,B,Theme,Local,displayed,d2,1
    "red, bold",color,B,Theme,Local,displayed,d1,3
    blue,color,A,Theme,Local,displayed,d3,2

    """
  private let outcomes = """
    id_for_vendor,metric,value
    d1,converted,1
    d2,converted,0
    d3,converted,1
    d1,revenue,2.5
    d3,revenue,4

    """

  @Test func devicesCountOncePerExperimentUnderTheirFirstVariant() throws {
    let document = try EventsAnalysis(
      events: temporaryFile("e.csv", events), outcomes: temporaryFile("o.csv", outcomes), name: "t", options: .init()
    ).document
    let theme = try #require(document.experiments.first)
    #expect(document.devices == 3)
    #expect(document.days == 4)
    #expect(document.seed == nil)
    #expect(theme.baseline == "A")
    #expect(theme.variants.map(\.name) == ["A", "B"])
    #expect(theme.variants.map(\.exposed) == [2, 2])
    #expect(theme.variants.map(\.contaminated) == [1, 1])
    #expect(theme.variants.map(\.firstExposed) == [2, 1])
    #expect(theme.variants.map(\.weight) == [nil, nil])
    #expect(theme.mixedDevices == 1)
    #expect(theme.dailyNewExposures == [[1, 0, 1, 0], [0, 1, 0, 1]])
    let converted = theme.variants[0].metrics[0], revenue = theme.variants[0].metrics[1]
    #expect(converted.name == "converted" && converted.isConversion && converted.conversions == 2)
    #expect(revenue.name == "revenue" && !revenue.isConversion && revenue.mean == 3.25)
    // d2 has no revenue row: it counts as 0.
    #expect(theme.variants[1].metrics[1].mean == 0)
  }

  @Test func columnsCanHaveOtherNames() throws {
    let renamed = events.replacingOccurrences(of: "id_for_vendor", with: "user")
    var options = EventsAnalysis.Options()
    options.columns = ["id_for_vendor": "user"]
    options.baselines = ["Theme": "B"]
    options.conversionMetrics = ["converted": false]
    let document = try EventsAnalysis(
      events: temporaryFile("e.csv", renamed), outcomes: temporaryFile("o.csv", outcomes.replacingOccurrences(of: "id_for_vendor", with: "user")),
      name: "t", options: options
    ).document
    #expect(document.experiments[0].baseline == "B")
    #expect(!document.experiments[0].variants[0].metrics[0].isConversion)
  }

  /// An outcome with a time counts only at or after the device's first
  /// exposure to the experiment: d1 (first shown A on day 0) keeps every
  /// purchase; d2 (shown B on day 1) loses the one of day 0; d3 (shown A on
  /// day 2) keeps the one of its exposure day and loses day 1's. A row
  /// without a time counts whatever the time.
  @Test func outcomesWithTimesCountFromTheFirstExposure() throws {
    let timed = """
      id_for_vendor,metric,value,time
      d1,revenue,2.5,0
      d1,revenue,1,3
      d2,revenue,10,0
      d2,revenue,4,1
      d3,revenue,7,1
      d3,revenue,0.5,2
      d3,revenue,100,

      """
    let document = try EventsAnalysis(
      events: temporaryFile("e.csv", events), outcomes: temporaryFile("o.csv", timed), name: "t", options: .init()
    ).document
    let variants = try #require(document.experiments.first).variants
    // A: d1 3.5 and d3 0.5 + 100; B: d2 4.
    let a = try #require(variants[0].metrics.first), b = try #require(variants[1].metrics.first)
    #expect(a.n == 2 && a.mean == (3.5 + 100.5) / 2)
    #expect(b.n == 1 && b.mean == 4)
    #expect(!a.isConversion)
    // A timed conversion event counts the device once.
    let conversions = "id_for_vendor,metric,value,time\nd3,bought,1,1\nd1,bought,1,0\nd1,bought,1,2\n"
    let converted = try EventsAnalysis(
      events: temporaryFile("e.csv", events), outcomes: temporaryFile("o.csv", conversions), name: "t", options: .init()
    ).document.experiments[0].variants[0].metrics[0]
    #expect(converted.isConversion && converted.conversions == 1 && converted.n == 2)
  }

  @Test func aMissingColumnNamesTheFix() throws {
    let path = try temporaryFile("e.csv", events.replacingOccurrences(of: "id_for_vendor", with: "user"))
    #expect(throws: AnalyticsTableError.missingColumns(
      path: path, missing: [MissingColumn(column: "id_for_vendor", role: "id_for_vendor")],
      found: ["value", "key", "variant", "experiment", "source", "reason", "user", "day"])) {
      try EventsAnalysis(events: path, outcomes: temporaryFile("o.csv", outcomes), name: "t", options: .init())
    }
    let error = AnalyticsTableError.missingColumns(
      path: "e.csv", missing: [MissingColumn(column: "id_for_vendor", role: "id_for_vendor")], found: ["user"])
    #expect("\(error)" == "e.csv: has no column 'id_for_vendor' (found: user); name the column that holds it with --column id_for_vendor=NAME")
    // Every missing column in one message, each with its fix.
    let two = try temporaryFile("e2.csv", "variant,experiment,reason\nA,Theme,displayed\n")
    #expect(throws: AnalyticsTableError.missingColumns(
      path: two, missing: [MissingColumn(column: "id_for_vendor", role: "id_for_vendor"), MissingColumn(column: "day", role: "day")],
      found: ["variant", "experiment", "reason"])) {
      try EventsAnalysis(events: two, outcomes: nil, name: "t", options: .init())
    }
    let both = AnalyticsTableError.missingColumns(
      path: "e.csv", missing: [MissingColumn(column: "id_for_vendor", role: "id_for_vendor"), MissingColumn(column: "day", role: "day")],
      found: ["user"])
    #expect("\(both)" == "e.csv: has no columns 'id_for_vendor', 'day' (found: user); name the columns that hold them with --column id_for_vendor=NAME --column day=NAME")
  }

  @Test func aMalformedRowIsReportedWithItsLine() throws {
    let broken = events.replacingOccurrences(of: "Local,displayed,d2,1", with: "Local,displayed,d2,yesterday")
    let path = try temporaryFile("e.csv", broken)
    #expect(throws: AnalyticsTableError.malformedRow(path: path, line: 4, reason: "day 'yesterday' is not a whole number of days from 0 to 3659 (ten years)")) {
      try EventsAnalysis(events: path, outcomes: temporaryFile("o.csv", outcomes), name: "t", options: .init())
    }
    #expect("\(AnalyticsTableError.malformedRow(path: "e.csv", line: 4, reason: "has 3 fields where the header has 8"))"
      == "e.csv line 4: has 3 fields where the header has 8; fix the row or pass --skip-malformed to leave such rows out")
  }

  @Test func malformedRowsCanBeSkippedAndCounted() throws {
    let broken = events.replacingOccurrences(of: "Local,displayed,d2,1", with: "Local,displayed,d2,yesterday")
      + "short,row\n"
    var options = EventsAnalysis.Options()
    options.skipMalformed = true
    let analysis = try EventsAnalysis(
      events: temporaryFile("e.csv", broken), outcomes: temporaryFile("o.csv", outcomes), name: "t", options: options)
    #expect(analysis.skippedRows.map(\.line) == [4, 7])
    #expect(analysis.skippedRows.map(\.reason) == ["day 'yesterday' is not a whole number of days from 0 to 3659 (ten years)", "has 2 fields where the header has 8"])
    #expect(analysis.document.experiments[0].variants.map(\.exposed) == [2, 1])
  }

  @Test func aTableWithoutDisplayedEventsIsAClearError() throws {
    let path = try temporaryFile("e.csv", "value,key,variant,experiment,source,reason,id_for_vendor,day\nblue,color,A,Theme,Local,activated,d1,0\n")
    #expect(throws: AnalyticsTableError.noDisplayedEvents(path: path)) {
      try EventsAnalysis(events: path, outcomes: temporaryFile("o.csv", outcomes), name: "t", options: .init())
    }
  }

  @Test func exportedValuesWithCommasAreQuoted() {
    #expect(OutcomesTable.csv([(device: 7, values: [1, 2.5])], metrics: ["converted", "revenue"])
      == "id_for_vendor,metric,value\n7,converted,1.0\n7,revenue,2.5\n")
  }
}

/// Raw outcomes are at hand in a table: continuous metrics also get a rank test.
@Suite struct RankTestTests {
  @Test func continuousMetricsGetAMannWhitneyTestOnTheRawOutcomes() throws {
    let events = """
      variant,experiment,reason,id_for_vendor,day
      A,Theme,displayed,a1,0
      A,Theme,displayed,a2,0
      A,Theme,displayed,a3,1
      B,Theme,displayed,b1,0
      B,Theme,displayed,b2,2

      """
    let outcomes = """
      id_for_vendor,metric,value
      a1,revenue,2.5
      a2,revenue,4
      a3,revenue,1.25
      b1,revenue,9
      b2,revenue,7.5

      """
    let document = try EventsAnalysis(
      events: temporaryFile("e.csv", events), outcomes: temporaryFile("o.csv", outcomes), name: "t", options: .init()
    ).document
    #expect(document.experiments[0].rawOutcomes == [[[2.5, 4, 1.25]], [[9, 7.5]]])
    var settings = AnalysisSettings.standard
    settings.minimumDevicesPerVariant = 2
    let analysed = ExperimentAnalyzer(settings: settings).analyze(document)
    let expected = MannWhitney.test([2.5, 4, 1.25], [9, 7.5])
    #expect(analysed.experiments[0].analysis[0].comparisons[0].rankTest
      == TestSummary(test: "mann-whitney-u", statistic: expected.statistic, degreesOfFreedom: nil, pValue: expected.pValue))
  }
}
