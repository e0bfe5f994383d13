import AnalyticsTable
import BenchCLI
import Bucketing
import Digests
import Foundation
import Pipeline
import Platforms
import Report
import Results
import ScenarioFormat
import Sharding
import Simulation

/// An input reader under fuzzing: it takes any bytes and must answer with a
/// result or a clean error, never a trap, through the whole pipeline a user
/// runs (simulation or table reading, analysis, report).
enum FuzzTarget: String, CaseIterable {
  /// A scenario file: read it, and when it is valid, simulate a few devices,
  /// analyse and render the report.
  case scenario
  /// An events table and an outcomes table, split at the first NUL byte:
  /// read both, analyse and render the report.
  case table
  /// An Optimizely datafile, read as `bench bucket --framework optimizely`
  /// reads it, and every decision for a few ids.
  case optimizely
  /// A GrowthBook features payload, the same way.
  case growthbook
  /// A part file's body, given the checksum it needs, so that the fuzzer
  /// reaches the counts: merged, analysed and rendered as `bench merge` does.
  case part
  /// `bench bucket --attributes`, then decisions under Optimizely's and GrowthBook's
  /// targeting with those attributes.
  case attributes
  /// An analytics tool's export, after a map and a NUL byte: the map read as
  /// `--map` reads it (or, when it is no map, each preset in turn), the
  /// export as JSON Lines and as CSV, with metrics and a covariate from its
  /// events, analysed and rendered.
  case export
  /// A LaunchDarkly, Statsig, Eppo or Unleash file (the first byte picks
  /// which), read as `bench bucket` reads it, and every decision for a few
  /// ids with attributes of every JSON type, and the impact of the file
  /// against itself.
  case platforms

  func run(_ input: Data) {
    switch self {
    case .scenario: Self.scenario(input)
    case .table: Self.table(input)
    case .optimizely: Self.optimizely(input)
    case .growthbook: Self.growthBook(input)
    case .part: Self.part(input)
    case .attributes: Self.attributes(input)
    case .export: Self.export(input)
    case .platforms: Self.platforms(input)
    }
  }

  /// Devices simulated per valid scenario: enough to reach the analysis,
  /// few enough to keep thousands of inputs a second.
  private static let devices = 4

  private static func scenario(_ input: Data) {
    guard var scenario = try? Scenario.parse(input).scenario else { return }
    scenario.devices = devices
    let simulator = Simulator(plan: SimulationPlan(scenario))
    var tally = RunTally(plan: simulator.plan)
    for device in 0..<devices {
      var observer = NoObserver()
      tally.merge(simulator.replay(device: device, observer: &observer))
    }
    reportBoth(ResultsDocument(plan: simulator.plan, tally: tally), through: AnalysisPipeline(simulating: scenario))
  }

  private static func table(_ input: Data) {
    let parts = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let events = folder.appendingPathComponent("events.csv"), outcomes = folder.appendingPathComponent("outcomes.csv")
    guard (try? Data(parts[0]).write(to: events)) != nil,
      (try? Data(parts.count > 1 ? parts[1] : Data("id_for_vendor,metric,value\n".utf8)).write(to: outcomes)) != nil
    else { return }
    for skipMalformed in [false, true] {
      var options = EventsAnalysis.Options()
      options.skipMalformed = skipMalformed
      guard let analysis = try? EventsAnalysis(events: events.path, outcomes: outcomes.path, name: "fuzz", options: options) else {
        continue
      }
      reportBoth(analysis.document, through: AnalysisPipeline(settings: .standard, source: "Fuzzed"))
    }
  }

  private static func export(_ input: Data) {
    let parts = input.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let mappings = (try? ExportMapping(json: Array(parts[0]), path: "map.json")).map { [$0] }
      ?? ExportPreset.allCases.compactMap(\.mapping)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let body = parts.count > 1 ? Data(parts[1]) : Data(parts[0])
    for fileName in ["export.jsonl", "export.csv"] {
      let file = folder.appendingPathComponent(fileName)
      guard (try? body.write(to: file)) != nil else { return }
      for var mapping in mappings {
        mapping.format = nil
        var options = EventsAnalysis.Options()
        options.mapping = mapping
        options.time.format = mapping.timeFormat
        options.skipMalformed = true
        options.eventMetrics = [
          EventsAnalysis.EventMetric(name: "bought", event: "purchase"),
          EventsAnalysis.EventMetric(name: "revenue", event: "purchase", property: "price"),
        ]
        options.covariates = [EventsAnalysis.EventMetric(name: "revenue", event: "purchase", property: "price")]
        options.derived.winsorize = ["revenue": 0.9]
        options.derived.quantiles = ["revenue": [0.5]]
        guard let analysis = try? EventsAnalysis(events: file.path, outcomes: nil, name: "fuzz", options: options) else { continue }
        reportBoth(analysis.document, through: AnalysisPipeline(settings: .standard, source: "Fuzzed"))
      }
    }
  }

  /// Ids at the edges `bench bucket` meets: empty, numeric, non-ASCII, emoji, long.
  private static let ids = ["", "user-1", "42", "Ünïcödé", "👩‍💻", String(repeating: "x", count: 1_000)]

  /// Attributes every audience type reads.
  private static let sampleAttributes: [String: AttributeValue] = [
    "platform": .string("iOS"), "app_version": .string("2.1.0"), "sessions": .number(7), "beta": .bool(true),
  ]

  private static func optimizely(_ input: Data) {
    guard (try? StrictJSON.check(input)) != nil, let datafile = try? OptimizelyDatafile(json: input) else { return }
    _ = datafile.problems
    render(OptimizelyPlatform.lines(datafile, ids: ids, attributes: sampleAttributes))
  }

  private static func growthBook(_ input: Data) {
    guard (try? StrictJSON.check(input)) != nil, let payload = try? GrowthBookPayload(json: input) else { return }
    _ = payload.problems
    render(GrowthBookPlatform.lines(payload, ids: ids, attributes: sampleAttributes))
  }

  private static func platforms(_ input: Data) {
    guard let selector = input.first else { return }
    // Every platform of the registry but the two with targets of their own, chosen by the first byte.
    let plugins = PlatformRegistry.standard.plugins.filter { !["optimizely", "growthbook"].contains($0.traits.name) }
    let framework = PlatformChoice(plugins[Int(selector) % plugins.count])
    let file = input.dropFirst()
    guard (try? StrictJSON.check(Data(file))) != nil else { return }
    let attributes: String =
      switch framework.plugin.traits.name {
      case "statsig": #"{"email": "a@b.c", "country": "US", "custom": {"plan": "pro", "age": 30, "beta": true}, "customIDs": {"companyID": "c"}}"#
      case "unleash": #"{"plan": "pro", "sessionId": "s", "age": 30.5, "beta": true, "properties": {"tier": "gold"}}"#
      default: #"{"platform": "iOS", "app_version": "2.1.0", "sessions": 7, "score": 2.5, "beta": true, "groups": ["a", 1]}"#
      }
    guard let decisions = try? framework.decide(config: Data(file), ids: ids, attributes: attributes) else { return }
    _ = decisions.problems
    render(decisions.lines)
    _ = Bench.Impact.moves(before: decisions.lines, after: decisions.lines, ids: ids)
  }

  /// Each decision as `bench bucket` prints it, in text and as JSON.
  private static func render(_ rows: [BucketLine]) {
    for row in rows {
      _ = row.text
      _ = row.json.renderedOnOneLine()
    }
  }

  private static func part(_ input: Data) {
    let body = Array(input)
    let checksum = Array("sha256 \(SHA256.hex(of: body))\n".utf8)
    guard let merged = try? ShardMerge(parts: [(path: "fuzzed.part", bytes: body + checksum)]) else { return }
    for tally in merged.tallies {
      reportBoth(ResultsDocument(plan: merged.plan, tally: tally), through: AnalysisPipeline(simulating: merged.scenario))
    }
  }

  /// A datafile and a payload whose audiences read every attribute type and operator.
  private static let targetedDatafile = Data(#"""
    {"version": "4", "projectId": "1", "revision": "1", "accountId": "1", "attributes": [], "events": [],
     "audiences": [
      {"id": "10", "name": "a", "conditions": "[\"and\", [\"or\", {\"name\": \"platform\", \"type\": \"custom_attribute\", \"match\": \"exact\", \"value\": \"iOS\"}], [\"or\", {\"name\": \"app_version\", \"type\": \"custom_attribute\", \"match\": \"semver_ge\", \"value\": \"2.0.0\"}], [\"not\", {\"name\": \"sessions\", \"type\": \"custom_attribute\", \"match\": \"lt\", \"value\": 3}], [\"or\", {\"name\": \"beta\", \"type\": \"custom_attribute\", \"match\": \"exists\"}, {\"name\": \"platform\", \"type\": \"custom_attribute\", \"match\": \"substring\", \"value\": \"OS\"}]]"}],
     "experiments": [{"id": "1", "key": "paywall", "layerId": "l", "status": "Running", "audienceIds": ["10"],
      "variations": [{"id": "2", "key": "a"}, {"id": "3", "key": "b"}], "forcedVariations": {},
      "trafficAllocation": [{"entityId": "2", "endOfRange": 5000}, {"entityId": "3", "endOfRange": 10000}]}],
     "groups": [], "featureFlags": [], "rollouts": []}
    """#.utf8)

  private static let targetedPayload = Data(#"""
    {"features": {"paywall": {"defaultValue": "a", "rules": [{"key": "paywall", "variations": ["a", "b"],
      "weights": [0.5, 0.5], "coverage": 1, "hashAttribute": "id",
      "condition": {"platform": {"$in": ["iOS", "Android"]}, "app_version": {"$vgte": "2.0.0"},
        "sessions": {"$gt": 3}, "beta": {"$exists": true}, "$or": [{"platform": {"$regex": "^i"}}, {"sessions": {"$type": "number"}}]}}]}}}
    """#.utf8)

  private static func attributes(_ input: Data) {
    guard let attributes = try? Bench.Bucket.attributes(String(decoding: input, as: UTF8.self)) else { return }
    if let datafile = try? OptimizelyDatafile(json: targetedDatafile) {
      render(OptimizelyPlatform.lines(datafile, ids: ids, attributes: attributes))
    }
    if let payload = try? GrowthBookPayload(json: targetedPayload) {
      render(GrowthBookPlatform.lines(payload, ids: ids, attributes: attributes))
    }
  }

  /// `document` analysed, and its report in both formats and its results.json, as `bench --html` writes them.
  private static func reportBoth(_ document: ResultsDocument, through pipeline: AnalysisPipeline) {
    let analysed = pipeline.analyze(document)
    let report = pipeline.report(analysed)
    _ = MarkdownReport.render(report)
    _ = HTMLReport.render(report)
    _ = analysed.json.rendered()
  }
}
