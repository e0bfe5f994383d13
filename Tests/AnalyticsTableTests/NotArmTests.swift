import AnalyticsTable
import Foundation
import ScenarioFormat
import Testing

/// docs/analyze.md, "Exposures that are no arm": a tool's own (Statsig's rule ids for a user no group
/// holds) and `--exclude-variant`'s are left out, counted, and never a baseline.
@Suite struct NotArmTests {
  /// Statsig's export, time-sorted: a user outside the allocation first (`layerAssignment`), then the
  /// treatment, then the control.
  private let statsig = #"""
    user_id,stable_id,event_name,event_value,event_metadata,company_metadata,timestamp
    u1,s1,statsig::config_exposure,,,"{""config"": ""paywall"", ""ruleID"": ""layerAssignment""}",2026-10-20 09:00:00.000 UTC
    u2,s2,statsig::config_exposure,,,"{""config"": ""paywall"", ""ruleID"": ""annual_first""}",2026-10-20 09:01:00.000 UTC
    u3,s3,statsig::config_exposure,,,"{""config"": ""paywall"", ""ruleID"": ""control""}",2026-10-20 09:02:00.000 UTC
    u4,s4,statsig::config_exposure,,,"{""config"": ""paywall"", ""ruleID"": ""layerAssignment""}",2026-10-20 09:03:00.000 UTC
    u5,s5,statsig::config_exposure,,,"{""config"": ""paywall"", ""ruleID"": ""default""}",2026-10-20 09:04:00.000 UTC
    u2,s2,purchase,,"{""price"": ""9.99""}",,2026-10-20 10:00:00.000 UTC

    """#

  @Test func statsigsExposuresOfNoGroupAreLeftOutAndCounted() throws {
    var options = EventsAnalysis.Options()
    options.mapping = ExportPreset.statsig.mapping
    options.time.format = .iso8601
    let analysis = try EventsAnalysis(events: temporaryFile("s.csv", statsig), outcomes: nil, name: "t", options: options)
    let paywall = try #require(analysis.document.experiments.first)
    #expect(paywall.variants.map(\.name) == ["annual_first", "control"])
    #expect(paywall.variants.map(\.exposed) == [1, 1])
    #expect(paywall.baseline == "control" && paywall.baselineReason == "named as a control is")
    #expect(analysis.leftOut.notArms == ["paywall": ["layerAssignment": 2, "default": 1]])
    #expect(analysis.leftOut.otherEvents == 1)
  }

  @Test func excludedVariantsAreLeftOutAndAMisspellingIsAnError() throws {
    let events = """
      id_for_vendor,experiment,variant,reason,day
      d1,Paywall,holdout,displayed,0
      d2,Paywall,Control,displayed,0
      d3,Paywall,annual_first,displayed,1

      """
    var options = EventsAnalysis.Options()
    options.excludedVariants = ["Paywall": ["holdout"]]
    let analysis = try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options)
    #expect(analysis.document.experiments.first?.variants.map(\.name) == ["Control", "annual_first"])
    #expect(analysis.leftOut.notArms == ["Paywall": ["holdout": 1]])
    options.excludedVariants = ["Paywall": ["holdot"]]
    #expect(throws: AnalyticsTableError.unmatchedName(
      option: "--exclude-variant Paywall=holdot",
      reason: "no exposure of Paywall shows 'holdot' (variants: holdout, Control, annual_first)")) {
      try EventsAnalysis(events: temporaryFile("e.csv", events), outcomes: nil, name: "t", options: options)
    }
  }
}
