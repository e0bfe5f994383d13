import Foundation
import Results
import ScenarioFormat
import Tallies
import Testing

@testable import AnalyticsTable

/// Each preset reads its tool's export, in the shape the vendor documents,
/// without reshaping: the exposed, contaminated and first-exposed users and
/// the purchases counted at or after each user's first exposure are the
/// counts an independent Polars computation gives for the same file
/// (scripts/make_export_fixtures.py wrote both).
@Suite struct ExportPresetTests {
  /// What the fixtures script's Polars computation expects of one export.
  struct ExpectedFile: Decodable {
    let experiments: [String: [String: Expected]]
    /// The purchase events counted (with a unit, not duplicated) and those without a price.
    let purchases: Purchases
  }

  struct Purchases: Decodable {
    let events: Int
    let withoutProperty: Int
  }

  struct Expected: Decodable {
    let exposed: Int
    let contaminated: Int
    let firstExposed: Int
    let converted: Int
    let revenue: Double
    let moments: Moments?
  }

  /// numpy's moments of the first-exposed users' values.
  struct Moments: Decodable {
    let revenueMean, revenueVariance, purchasedMean, revenuePurchasedCovariance: Double
    let covariateMean, covariateVariance, covariateCovariance: Double
    let cap: Double
    let capped: Int
    let winsorizedMean, winsorizedVariance: Double
  }

  private func close(_ value: Double?, _ expected: Double) -> Bool {
    guard let value else { return false }
    return abs(value - expected) <= 1e-9 * max(1, abs(expected))
  }

  /// The preset, the file's extension and the purchase event with its price.
  static let cases: [(ExportPreset, String, String, String)] = [
    (.amplitude, "jsonl", "purchase", "price"),
    (.mixpanel, "jsonl", "Purchase", "amount"),
    (.segment, "jsonl", "Order Completed", "revenue"),
    (.statsig, "csv", "purchase", "event_value"),
    (.firebase, "jsonl", "purchase", "value"),
  ]

  /// The examples in docs/examples/exports, which docs/analyze.md shows.
  static func fixture(_ name: String) throws -> URL {
    repositoryRoot.appendingPathComponent("docs/examples/exports/\(name)")
  }

  @Test(arguments: cases.map(\.0))
  func aPresetGivesThePolarsCounts(_ preset: ExportPreset) throws {
    let (_, fileExtension, purchase, price) = Self.cases.first { $0.0 == preset }!
    var options = EventsAnalysis.Options()
    options.mapping = preset.mapping
    options.time.format = preset.mapping!.timeFormat
    options.eventMetrics = [
      EventsAnalysis.EventMetric(name: "purchased", event: purchase),
      EventsAnalysis.EventMetric(name: "revenue", event: purchase, property: price),
    ]
    options.covariates = [EventsAnalysis.EventMetric(name: "revenue", event: purchase, property: price)]
    options.derived.ratios = [RatioMetric(name: "revenue per buyer", numerator: "revenue", denominator: "purchased")]
    options.derived.winsorize = ["revenue": 0.9]
    let analysis = try EventsAnalysis(
      events: Self.fixture("\(preset.rawValue).\(fileExtension)").path, outcomes: nil, name: "t", options: options)
    let file = try JSONDecoder().decode(ExpectedFile.self, from: Data(contentsOf: Self.fixture("\(preset.rawValue)-expected.json")))
    let expected = file.experiments
    // Every eighth purchase has no price: it counts, adds 0, and is counted as such.
    #expect(file.purchases.withoutProperty > 0)
    #expect(analysis.document.missingProperties == [
      MissingPropertyCount(
        metric: "revenue", event: purchase, property: price, events: file.purchases.events,
        withoutProperty: file.purchases.withoutProperty)
    ])
    let experiments = analysis.document.experiments
    #expect(Set(experiments.map(\.name)) == Set(expected.keys))
    for experiment in experiments {
      let variants = try #require(expected[experiment.name])
      #expect(Set(experiment.variants.map(\.name)) == Set(variants.keys), "\(experiment.name)")
      for variant in experiment.variants {
        let want = try #require(variants[variant.name])
        let label = "\(preset) \(experiment.name) \(variant.name)"
        #expect(variant.exposed == want.exposed, "\(label)")
        #expect(variant.contaminated == want.contaminated, "\(label)")
        #expect(variant.firstExposed == want.firstExposed, "\(label)")
        let purchased = try #require(variant.metrics.first { $0.name == "purchased" })
        #expect(purchased.isConversion && purchased.n == want.firstExposed, "\(label)")
        #expect(purchased.conversions == want.converted, "\(label)")
        let revenue = try #require(variant.metrics.first { $0.name == "revenue" })
        #expect(!revenue.isConversion)
        let sum = try #require(revenue.mean) * Double(revenue.n)
        #expect(abs(sum - want.revenue) < 1e-9, "\(label): \(sum)")
        guard let moments = want.moments else { continue }
        #expect(close(revenue.mean, moments.revenueMean) && close(revenue.variance, moments.revenueVariance), "\(label)")
        let ratio = try #require(variant.ratios.first)
        #expect(ratio.n == want.firstExposed && close(ratio.numeratorMean, moments.revenueMean), "\(label)")
        #expect(close(ratio.denominatorMean, moments.purchasedMean), "\(label)")
        #expect(close(ratio.covariance, moments.revenuePurchasedCovariance), "\(label)")
        let covariate = try #require(revenue.covariate)
        #expect(close(covariate.mean, moments.covariateMean) && close(covariate.variance, moments.covariateVariance), "\(label)")
        #expect(close(covariate.covariance, moments.covariateCovariance), "\(label)")
        let winsorized = try #require(variant.winsorized.first)
        #expect(winsorized.cap == moments.cap && winsorized.capped == moments.capped, "\(label)")
        #expect(close(winsorized.summary.mean, moments.winsorizedMean), "\(label)")
        #expect(close(winsorized.summary.variance, moments.winsorizedVariance), "\(label)")
      }
    }
  }

  /// The rows of the Amplitude example whose `event_type` is `name`, counted independently of the reader.
  private func amplitudeRows(_ name: String) throws -> Int {
    try String(contentsOf: Self.fixture("amplitude.jsonl"), encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("\"event_type\": \"\(name)\"") }.count
  }

  private func analyseAmplitude(_ metrics: [EventsAnalysis.EventMetric]) throws -> EventsAnalysis {
    var options = EventsAnalysis.Options()
    options.mapping = ExportPreset.amplitude.mapping
    options.time.format = .iso8601
    options.eventMetrics = metrics
    return try EventsAnalysis(events: Self.fixture("amplitude.jsonl").path, outcomes: nil, name: "t", options: options)
  }

  /// A metric's event that no row has is a misspelling, not a metric of zeros: the error names the
  /// events the file has that are nearest, the same but for case first, with their rows.
  @Test func aMetricEventNoRowHasIsRefusedWithTheNearestNames() throws {
    let purchases = try amplitudeRows("purchase")
    #expect(purchases > 100)
    #expect(throws: AnalyticsTableError.unmatchedName(
      option: "--metric purchased=Purchase", reason: "no row is a 'Purchase' event; the file has 'purchase' (\(purchases) rows)")
    ) { try analyseAmplitude([EventsAnalysis.EventMetric(name: "purchased", event: "Purchase")]) }
    // Nothing near: the most frequent events, most rows first.
    let error = #expect(throws: AnalyticsTableError.self) {
      try analyseAmplitude([EventsAnalysis.EventMetric(name: "refunded", event: "refund")])
    }
    // The file's other events (its exposures count elsewhere), most rows first, then by name.
    let others = try ["purchase", "session_start", "screen_view", "[Experiment] Assignment"].map { ($0, try amplitudeRows($0)) }
      .sorted { ($1.1, $0.0) < ($0.1, $1.0) }
    #expect(error?.description == "--metric refunded=refund: no row is a 'refund' event; the most frequent events of the file are "
      + others.map { "'\($0.0)' (\($0.1) rows)" }.joined(separator: ", "))
  }

  /// A sum's property that none of its events has is refused with the fields they do have, counted
  /// over the events the metric reads (those with a unit).
  @Test func aPropertyNoEventHasIsRefusedWithTheNearestFields() throws {
    let priced = try String(contentsOf: Self.fixture("amplitude.jsonl"), encoding: .utf8).split(separator: "\n")
      .filter { $0.contains("\"event_type\": \"purchase\"") && $0.contains("\"price\":") && !$0.contains("\"amplitude_id\": null") }
      .count
    #expect(priced > 100)
    #expect(throws: AnalyticsTableError.unmatchedName(
      option: "--metric revenue=purchase:Price", reason: "no 'purchase' event has 'Price'; its events have 'price' (\(priced) rows)")
    ) { try analyseAmplitude([EventsAnalysis.EventMetric(name: "revenue", event: "purchase", property: "Price")]) }
  }

  /// What a real export holds that counts nowhere is counted, not silently dropped.
  @Test func rowsThatCountNowhereAreCounted() throws {
    var options = EventsAnalysis.Options()
    options.mapping = ExportPreset.mixpanel.mapping
    options.time.format = .unix
    let mixpanel = try EventsAnalysis(events: Self.fixture("mixpanel.jsonl").path, outcomes: nil, name: "t", options: options)
    #expect(mixpanel.leftOut.duplicates > 0)
    #expect(mixpanel.leftOut.withoutUnit == 1)
    #expect(mixpanel.leftOut.otherEvents > 100)
    options.mapping = ExportPreset.amplitude.mapping
    options.time.format = .iso8601
    let amplitude = try EventsAnalysis(events: Self.fixture("amplitude.jsonl").path, outcomes: nil, name: "t", options: options)
    #expect(amplitude.leftOut.withoutVariant == 1)
    #expect(amplitude.leftOut.duplicates == 0)
  }
}
