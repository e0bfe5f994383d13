import AnalyticsTable
import Foundation
import Testing

/// docs/analyze.md, "Spellings": iOS sends `Subscription_Started` where Android sends
/// `subscription_started`. A metric counts the spelling it names and the analysis says which others
/// the file holds; `--fold-event-case` counts them all.
@Suite struct EventSpellingTests {
  /// Four users exposed; u1 and u2 subscribe as Android spells it, u3 as iOS does, u4 not at all.
  private let export: String = {
    func row(_ user: Int, _ event: String, _ properties: String = "{}") -> String {
      #"{"amplitude_id": \#(user), "event_time": "2026-10-20 1\#(user):00:00.000000", "event_type": "\#(event)", "event_properties": \#(properties)}"#
    }
    let exposures = (1...4).map { row($0, "$exposure", #"{"flag_key": "paywall", "variant": "\#($0 % 2 == 0 ? "control" : "annual")"}"#) }
    let later = [(1, "subscription_started"), (2, "subscription_started"), (3, "Subscription_Started")].map { user, event in
      #"{"amplitude_id": \#(user), "event_time": "2026-10-21 10:00:00.000000", "event_type": "\#(event)", "event_properties": {}}"#
    }
    return (exposures + later).joined(separator: "\n") + "\n"
  }()

  private func analysis(fold: Bool) throws -> EventsAnalysis {
    var options = EventsAnalysis.Options()
    options.mapping = ExportPreset.amplitude.mapping
    options.time.format = .iso8601
    options.eventMetrics = [EventsAnalysis.EventMetric(name: "subscribed", event: "subscription_started")]
    options.foldEventCase = fold
    return try EventsAnalysis(events: temporaryFile("a.jsonl", export), outcomes: nil, name: "t", options: options)
  }

  private func conversions(_ analysis: EventsAnalysis) throws -> [String: Int] {
    let experiment = try #require(analysis.document.experiments.first)
    return Dictionary(uniqueKeysWithValues: try experiment.variants.map { variant in
      (variant.name, try #require(variant.metrics.first { $0.name == "subscribed" }?.conversions))
    })
  }

  @Test func aMetricCountsItsSpellingAndSaysWhichOthersTheFileHolds() throws {
    let exact = try analysis(fold: false)
    #expect(try conversions(exact) == ["annual": 1, "control": 1])
    #expect(exact.otherSpellings.count == 1)
    let spelling = try #require(exact.otherSpellings.first)
    #expect(spelling.option == "--metric subscribed=subscription_started" && spelling.rows == 2)
    #expect(spelling.others.map(\.name) == ["Subscription_Started"] && spelling.others.map(\.rows) == [1])
    // Folded, every spelling counts: u3's subscription too, and nothing is left to warn of.
    let folded = try analysis(fold: true)
    #expect(try conversions(folded) == ["annual": 2, "control": 1])
    #expect(folded.otherSpellings.isEmpty)
  }
}
