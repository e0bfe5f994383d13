@testable import Bucketing
import Foundation
import JSONDocument
import Testing

/// Every vendor's "matches" operator searches under the same budget: a
/// pattern that backtracks catastrophically on a long attribute gives up as
/// no match instead of holding the evaluation for hours, and ordinary
/// patterns, the empty pattern and matches at the end of a long text are
/// unaffected.
@Suite struct RegularExpressionSearchTests {
  /// `(x+x+)+y` has 2^n ways to split n x's; backtracking tries them all before failing.
  static let hostile = "(x+x+)+y"
  static let xs = String(repeating: "x", count: 100)

  @Test func aSearchNeverBacktracksAndFindsOrdinaryMatches() throws {
    func found(_ pattern: String, _ text: String, caseInsensitive: Bool = false) throws -> Bool {
      try #require(RegularExpressionSearch(pattern, caseInsensitive: caseInsensitive)).found(in: text)
    }
    // Read by the linear matcher: 100,000 characters in one pass, where ICU would backtrack for hours.
    #expect(LinearPattern(Self.hostile, caseInsensitive: false) != nil)
    #expect(try !found(Self.hostile, String(repeating: "x", count: 100_000)))
    #expect(try found(Self.hostile, String(repeating: "x", count: 100_000) + "y"))
    #expect(try !found("^(a|aa)+$", String(repeating: "a", count: 60) + "!"))
    #expect(try found("^[a-z]+@", "ann@example.com"))
    #expect(try !found("^[a-z]+@", "Ann@example.com"))
    #expect(try found("^[a-z]+@", "Ann@example.com", caseInsensitive: true))
    #expect(try found("z$", String(repeating: "y", count: 100_000) + "z"))
    #expect(try found("", "anything"))
    #expect(try found("", ""))
    #expect(RegularExpressionSearch("(unclosed") == nil)
  }

  /// A pattern the linear matcher leaves to ICU (a back reference) still
  /// gives up within the budget when it backtracks catastrophically.
  @Test func whatICUSearchesStaysWithinTheBudget() throws {
    let hostile = "(x+x+)+\\1y"
    #expect(LinearPattern(hostile, caseInsensitive: false) == nil)
    let search = try #require(RegularExpressionSearch(hostile))
    #expect(!search.found(in: Self.xs))
    #expect(try #require(RegularExpressionSearch("(ab)\\1")).found(in: "xabab"))
  }

  /// Every SDK's engine finds the empty pattern in every text (Python's
  /// `re.search("", text)`, JavaScript's `new RegExp("")`); Foundation
  /// refuses to compile it, so it is read as "(?:)" for every vendor.
  @Test func theEmptyPatternMatchesEveryText() {
    #expect(LaunchDarklyClause.apply("matches", .string("anything"), .string("")))
    #expect(GrowthBookCondition.evaluate(.object(["id": .object(["$regex": .string("")])]), attributes: ["id": .string("x")]))
    #expect(!GrowthBookCondition.evaluate(.object(["id": .object(["$notRegex": .string("")])]), attributes: ["id": .string("x")]))
  }

  /// A GrowthBook payload compiles its conditions' patterns when it is read,
  /// wherever they stand (a rule's condition, deep in `$or`, `$not` and
  /// `$elemMatch`, a prerequisite's condition), once per pattern and case, and
  /// its features answer as with each pattern compiled when met.
  @Test func aGrowthBookPayloadCompilesItsPatternsOnce() throws {
    let payload = try GrowthBookPayload(json: Data(#"""
      {"features": {
        "a": {"defaultValue": 0, "rules": [
          {"condition": {"$or": [{"email": {"$regex": "@acme\\.com$"}}, {"email": {"$not": {"$regexi": "^ADMIN"}}}]}, "force": 1},
          {"condition": {"tags": {"$elemMatch": {"$notRegex": "beta"}}}, "force": 2},
          {"condition": {"email": {"$regex": "@acme\\.com$"}}, "force": 3}]},
        "b": {"defaultValue": "x", "rules": [
          {"parentConditions": [{"id": "a", "condition": {"value": {"$regex": "["}}}], "force": "y"},
          {"condition": {"id": {"$regex": 7}}, "force": "z"}]}}}
      """#.utf8))
    // Four distinct patterns, "[" among them (it does not compile); the number 7 is no pattern.
    #expect(payload.patterns.count == 4)
    let users: [[String: AttributeValue]] = [
      ["email": .string("ann@acme.com")], ["email": .string("admin@x.org")], ["email": .string("bo@x.org"), "tags": .array([.string("beta")])],
      ["tags": .array([.string("alpha")])],
    ]
    // A missing email fails `$regexi`, so `$not` holds; "[" never compiles, so the prerequisite fails.
    let expected: [(a: AttributeValue, b: AttributeValue)] = [(.number(1), .string("x")), (.number(0), .string("x")), (.number(1), .string("x")), (.number(1), .string("x"))]
    for (attributes, values) in zip(users, expected) {
      var sticky: GrowthBookStickyBuckets? = nil
      #expect(payload.evaluate("a", attributes: attributes, sticky: &sticky).value == values.a, "\(attributes)")
      #expect(payload.evaluate("b", attributes: attributes, sticky: &sticky).value == values.b, "\(attributes)")
      let conditions = payload.features.values.flatMap { $0.rules.compactMap(\.condition) + $0.rules.flatMap { $0.parentConditions.map(\.condition) } }
      for condition in conditions {
        #expect(
          GrowthBookCondition.evaluate(condition, attributes: attributes, patterns: payload.patterns)
            == GrowthBookCondition.evaluate(condition, attributes: attributes), "\(condition) on \(attributes)")
      }
    }
    var edited = payload
    edited.features["c"] = GrowthBookPayload.Feature(
      defaultValue: .bool(false),
      rules: [GrowthBookPayload.Rule(
        condition: .object(["os": .object(["$regex": .string("^iOS")])]), force: .bool(true), coverage: nil, experiment: nil,
        hashAttribute: "id", hashVersion: 1, seed: nil)])
    #expect(edited.patterns.count == 5)
  }

  @Test func launchDarklyMatchesIsBudgeted() throws {
    let data = try LaunchDarklyFlagData(json: Data(#"""
      {"flags": {"f": {"key": "f", "on": true, "variations": [true, false], "offVariation": 1, "fallthrough": {"variation": 1},
        "rules": [{"clauses": [{"attribute": "email", "op": "matches", "values": ["\#(Self.hostile)"]}], "variation": 0}]}}}
      """#.utf8))
    let evaluator = LaunchDarklyEvaluator(data: data)
    func variation(_ email: String) -> Int? {
      evaluator.variationDetail("f", context: LaunchDarklyContext(key: "u", attributes: ["email": .string(email)])).variationIndex
    }
    #expect(variation(Self.xs) == 1)
    #expect(variation(Self.xs + "y") == 0)
  }

  @Test func statsigStrMatchesIsBudgeted() throws {
    let specs = try StatsigSpecs(json: Data(#"""
      {"time": 1, "feature_gates": [{"name": "g", "enabled": true, "entity": "feature_gate", "salt": "s", "defaultValue": false,
        "rules": [{"id": "r", "salt": "r", "passPercentage": 100, "returnValue": true, "idType": "userID",
          "conditions": [{"type": "user_field", "field": "email", "operator": "str_matches", "targetValue": "\#(Self.hostile)"}]}]}]}
      """#.utf8))
    let evaluator = StatsigEvaluator(specs: specs, now: Date(timeIntervalSince1970: 0))
    func passes(_ email: String) -> Bool {
      evaluator.checkGate("g", user: StatsigUser(userID: "u", attributes: ["email": .string(email)])).passed
    }
    #expect(!passes(Self.xs))
    #expect(passes(Self.xs + "y"))
  }

  @Test func eppoMatchesIsBudgeted() throws {
    let configuration = try EppoConfiguration(json: Data(#"""
      {"createdAt": "2026-01-01T00:00:00Z", "format": "SERVER", "environment": {"name": "test"}, "flags": {"f": {
        "key": "f", "enabled": true, "variationType": "STRING", "totalShards": 10000,
        "variations": {"a": {"key": "a", "value": "A"}, "b": {"key": "b", "value": "B"}},
        "allocations": [
          {"key": "regex", "rules": [{"conditions": [{"attribute": "email", "operator": "MATCHES", "value": "\#(Self.hostile)"}]}],
           "splits": [{"variationKey": "a", "shards": []}], "doLog": true},
          {"key": "rest", "rules": [], "splits": [{"variationKey": "b", "shards": []}], "doLog": true}]}}}
      """#.utf8))
    let evaluator = EppoEvaluator(configuration: configuration)
    func variation(_ email: String) -> String? {
      evaluator.assign("f", subject: "u", attributes: ["email": .string(email)], now: Date()).variationKey
    }
    #expect(variation(Self.xs) == "b")
    #expect(variation(Self.xs + "y") == "a")
  }

  @Test func unleashRegexIsBudgeted() throws {
    let features = try UnleashFeatures(json: Data(#"""
      {"version": 2, "features": [{"name": "f", "type": "release", "enabled": true, "variants": [],
        "strategies": [{"name": "default", "parameters": {},
          "constraints": [{"contextName": "email", "operator": "REGEX", "inverted": false, "caseInsensitive": false, "value": "\#(Self.hostile)"}]}]}]}
      """#.utf8))
    let evaluator = UnleashEvaluator(features: features)
    func variation(_ email: String) -> String? {
      evaluator.decide("f", context: UnleashContext(userID: "u", attributes: ["email": .string(email)], now: Date()))?.variation
    }
    #expect(variation(Self.xs) == "disabled")
    #expect(variation(Self.xs + "y") != "disabled")
  }
}
