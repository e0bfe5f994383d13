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
