import Foundation
import Testing

@testable import Bucketing

/// GrowthBook's own SDK test suite (spec 0.7.1, the `cases.json` every
/// GrowthBook SDK runs; Fixtures/growthbook-suite/README.md says where it
/// comes from), run through the Bucketing module, section by section.
///
/// Every case of a section runs, except those listed in `skipped` with the
/// reason: options an app sets in code (a disabled SDK, a URL, QA mode, an
/// inline experiment's prerequisites), which neither a payload nor
/// `--attributes` can express. Each test counts the cases it ran, so a skip
/// cannot grow unseen. Where the suite and the Python SDK disagree (five
/// comparisons, which the suite writes from JavaScript's semantics), the
/// suite wins, as the mobile SDKs follow it (docs/rules/GrowthBookWeightChange.md).
@Suite struct GrowthBookSuiteTests {
  private static let skipped: [String: String] = [
    "include experiments when forced": "forcedVariations are the app's, not the payload's",
    "globally disabled": "`enabled: false` is an app setting",
    "querystring force": "a URL is the web SDK's",
    "querystring force with inactive": "a URL is the web SDK's",
    "Skips experiments in QA mode": "QA mode is an app setting",
    "Works in QA mode if forced in context": "QA mode is an app setting",
    "Works in QA mode if forced in experiment": "QA mode is an app setting",
    "Prerequisite condition passes": "an inline experiment's prerequisites are the app's; rules' are in `feature`",
    "Prerequisite condition fails": "an inline experiment's prerequisites are the app's; rules' are in `feature`",
  ]

  private static func suite() throws -> [String: AttributeValue] {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/growthbook-suite/cases", withExtension: "json"))
    return try #require(try AttributeValue(json: Data(contentsOf: url)).object)
  }

  private static func section(_ name: String) throws -> [[AttributeValue]] {
    try #require(try suite()[name]?.array).map { try #require($0.array, "a case of \(name)") }
  }

  @Test func theSuiteIsTheVersionItSaysItIs() throws {
    #expect(try Self.suite()["specVersion"] == .string("0.7.1"))
  }

  @Test func evalCondition() throws {
    let cases = try Self.section("evalCondition")
    for item in cases {
      let name = item[0].string ?? "", attributes = try #require(item[2].object, "\(name)")
      let groups = item.count > 4 ? try #require(item[4].object, "\(name)") : [:]
      #expect(
        GrowthBookCondition.evaluate(item[1], attributes: attributes, savedGroups: groups) == (item[3] == .bool(true)),
        "\(name)")
    }
    #expect(cases.count == 278)
  }

  @Test func hash() throws {
    let cases = try Self.section("hash")
    for item in cases {
      let seed = try #require(item[0].string), value = try #require(item[1].string)
      let version = Int(try #require(item[2].number))
      #expect(GrowthBookHash.hash(seed: seed, value: value, version: version) == item[3].number, "\(seed) \(value) v\(version)")
    }
    #expect(cases.count == 15)
  }

  private static func ranges(_ value: AttributeValue) throws -> [GrowthBookHash.Range] {
    try #require(value.array).map { pair in
      let bounds = try #require(pair.array)
      return GrowthBookHash.Range(start: try #require(bounds[0].number), end: try #require(bounds[1].number))
    }
  }

  @Test func getBucketRange() throws {
    let cases = try Self.section("getBucketRange")
    func rounded(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
    for item in cases {
      let arguments = try #require(item[1].array)
      let ranges = GrowthBookHash.bucketRanges(
        count: Int(try #require(arguments[0].number)), coverage: try #require(arguments[1].number),
        weights: arguments[2].array?.compactMap(\.number))
      let expected = try Self.ranges(item[2])
      #expect(ranges.map { [rounded($0.start), rounded($0.end)] } == expected.map { [$0.start, $0.end] }, "\(item[0])")
    }
    #expect(cases.count == 13)
  }

  @Test func chooseVariation() throws {
    let cases = try Self.section("chooseVariation")
    for item in cases {
      let n = try #require(item[1].number)
      #expect(GrowthBookHash.chooseVariation(n, ranges: try Self.ranges(item[2])) == Int(try #require(item[3].number)), "\(item[0])")
    }
    #expect(cases.count == 13)
  }

  @Test func inNamespace() throws {
    let cases = try Self.section("inNamespace")
    for item in cases {
      let parts = try #require(item[2].array)
      let namespace = GrowthBookHash.Namespace(
        id: try #require(parts[0].string), start: try #require(parts[1].number), end: try #require(parts[2].number))
      #expect(namespace.contains(userID: try #require(item[1].string)) == (item[3] == .bool(true)), "\(item[0])")
    }
    #expect(cases.count == 16)
  }

  @Test func getEqualWeights() throws {
    let cases = try Self.section("getEqualWeights")
    for item in cases {
      let count = Int(try #require(item[0].number))
      let weights = GrowthBookHash.normalizedWeights(count: count, nil).map { ($0 * 1e8).rounded() / 1e8 }
      #expect(weights == (try #require(item[1].array)).compactMap(\.number), "\(count)")
    }
    #expect(cases.count == 6)
  }

  /// A suite context's payload: its features and saved groups.
  private static func payload(_ context: [String: AttributeValue]) throws -> GrowthBookPayload {
    try GrowthBookPayload(
      .object(["features": context["features"] ?? .object([:]), "savedGroups": context["savedGroups"] ?? .object([:])]))
  }

  /// The fields of an experiment result the module decides, against the
  /// suite's (not its `name` and `featureId`, the payload's own text).
  private static func expectResult(
    _ result: GrowthBookExperiment.Result?, of experiment: GrowthBookExperiment?, value: AttributeValue?,
    _ expected: [String: AttributeValue], _ name: String
  ) throws {
    let result = try #require(result, "\(name): no experiment result")
    let experiment = try #require(experiment, "\(name)")
    #expect(.number(Double(result.variationID)) == expected["variationId"], "\(name): variationId")
    #expect(.bool(result.inExperiment) == expected["inExperiment"], "\(name): inExperiment")
    #expect(.bool(result.hashUsed) == expected["hashUsed"], "\(name): hashUsed")
    #expect(.bool(result.stickyBucketUsed) == expected["stickyBucketUsed"], "\(name): stickyBucketUsed")
    #expect(result.bucket.map(AttributeValue.number) == expected["bucket"], "\(name): bucket")
    #expect(.string(result.hashAttribute) == expected["hashAttribute"], "\(name): hashAttribute")
    #expect(result.hashValue == expected["hashValue"].flatMap(GrowthBookExperiment.hashValue), "\(name): hashValue")
    #expect(.string(experiment.variationKey(result.variationID)) == expected["key"], "\(name): key")
    #expect(value == expected["value"], "\(name): value")
  }

  @Test func feature() throws {
    var ran = 0
    let cases = try Self.section("feature")
    for item in cases {
      let name = try #require(item[0].string)
      guard Self.skipped[name] == nil else { continue }
      let context = try #require(item[1].object, "\(name)"), key = try #require(item[2].string, "\(name)")
      let expected = try #require(item[3].object, "\(name)")
      var sticky: GrowthBookStickyBuckets?
      let evaluation = try Self.payload(context).evaluate(key, attributes: context["attributes"]?.object ?? [:], sticky: &sticky)
      #expect(evaluation.value == expected["value"], "\(name): value")
      #expect(.bool(GrowthBookPayload.isTruthy(evaluation.value)) == expected["on"], "\(name): on")
      #expect(.bool(!GrowthBookPayload.isTruthy(evaluation.value)) == expected["off"], "\(name): off")
      #expect(.string(evaluation.source) == expected["source"], "\(name): source")
      #expect(.string(evaluation.ruleID) == expected["ruleId"], "\(name): ruleId")
      if let result = expected["experimentResult"]?.object {
        let rule = try Self.payload(context).features[key]?.rules.first { $0.experiment?.key == evaluation.experimentKey }
        try Self.expectResult(evaluation.experiment, of: rule?.experiment, value: evaluation.value, result, "\(name)")
      } else {
        #expect(evaluation.experiment == nil, "\(name): an experiment result the suite does not have")
      }
      ran += 1
    }
    #expect(ran == cases.count - 1)
  }

  @Test func run() throws {
    var ran = 0
    let cases = try Self.section("run")
    for item in cases {
      let name = try #require(item[0].string)
      guard Self.skipped[name] == nil else { continue }
      let context = try #require(item[1].object, "\(name)"), definition = try #require(item[2].object, "\(name)")
      let experiment = GrowthBookExperiment(members: definition, key: "")
      let forced = (context["forcedVariations"]?.object ?? [:]).compactMapValues { $0.number.map { Int($0) } }
      var sticky: GrowthBookStickyBuckets?
      let result = experiment.run(
        attributes: context["attributes"]?.object ?? [:], forcedVariations: forced, sticky: &sticky,
        savedGroups: context["savedGroups"]?.object ?? [:])
      let value = experiment.variations.isEmpty ? AttributeValue.null : experiment.variations[result.variationID]
      #expect(value == item[3], "\(name): value")
      #expect(.bool(result.inExperiment) == item[4], "\(name): inExperiment")
      #expect(.bool(result.hashUsed) == item[5], "\(name): hashUsed")
      ran += 1
    }
    #expect(ran == cases.count - 8)
  }

  /// Sticky bucketing with fallback attributes, bucket versions and
  /// blocked versions: the result, and the user's documents afterwards.
  @Test func stickyBucket() throws {
    let cases = try Self.section("stickyBucket")
    for item in cases {
      let name = try #require(item[0].string)
      let context = try #require(item[1].object, "\(name)"), key = try #require(item[3].string, "\(name)")
      let attributes = context["attributes"]?.object ?? [:]
      var documents: [String: [String: String]] = [:]
      for stored in try #require(item[2].array, "\(name)") {
        let doc = try #require(stored.object, "\(name)")
        let attribute = try #require(doc["attributeName"]?.string), value = try #require(doc["attributeValue"]?.string)
        documents[GrowthBookStickyBuckets.documentKey(attribute: attribute, value: value)] =
          (doc["assignments"]?.object ?? [:]).compactMapValues(\.string)
      }
      var sticky: GrowthBookStickyBuckets? = GrowthBookStickyBuckets(documents: documents)
      let payload = try Self.payload(context)
      let evaluation = payload.evaluate(key, attributes: attributes, sticky: &sticky)
      if let expected = item[4].object {
        let rule = payload.features[key]?.rules.first { $0.experiment?.key == evaluation.experimentKey }
        try Self.expectResult(evaluation.experiment, of: rule?.experiment, value: evaluation.value, expected, "\(name)")
      } else {
        #expect(evaluation.experiment == nil, "\(name): the suite has no experiment result")
      }
      // The user's documents: those of its own attributes' values.
      let own = (sticky?.documents ?? [:]).filter { documentKey, _ in
        attributes.contains { GrowthBookStickyBuckets.documentKey(attribute: $0.key, value: $0.value.string ?? "") == documentKey }
      }
      let expectedDocuments = try #require(item[5].object, "\(name)").mapValues { doc in
        (doc.object?["assignments"]?.object ?? [:]).compactMapValues(\.string)
      }
      #expect(own == expectedDocuments, "\(name): documents")
    }
    #expect(cases.count == 13)
  }
}
