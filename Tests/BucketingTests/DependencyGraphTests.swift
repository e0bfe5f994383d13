import Bucketing
import Foundation
import JSONDocument
import Testing

/// Flags, segments and gates that depend on each other are evaluated once
/// each per decision, and a chain deeper than any real file is an error the
/// SDK's caller sees, not a stack overflow: files anyone can send must not
/// hang or crash the bench.
@Suite struct DependencyGraphTests {
  private let context = LaunchDarklyContext(key: "user-1", attributes: [:])

  /// Flag f0 needs f1 and f1' (index 1 of each level), each of which needs both flags of the next
  /// level, down to `levels`: 2^levels paths, 2 × levels flags.
  private func fanOut(levels: Int) throws -> LaunchDarklyFlagData {
    var flags: [String] = []
    for level in 0..<levels {
      for side in ["a", "b"] {
        let next = level + 1 < levels
          ? #", "prerequisites": [{"key": "f\#(level + 1)a", "variation": 0}, {"key": "f\#(level + 1)b", "variation": 0}]"# : ""
        flags.append(#""f\#(level)\#(side)": {"key": "f\#(level)\#(side)", "on": true, "variations": [true, false], "fallthrough": {"variation": 0}, "offVariation": 1\#(next)}"#)
      }
    }
    return try LaunchDarklyFlagData(json: Data(("{\"flags\": {" + flags.joined(separator: ", ") + "}}").utf8))
  }

  /// A chain f0 → f1 → … → f(n-1), each served variation 0 when its prerequisite is.
  private func chain(_ count: Int) throws -> LaunchDarklyFlagData {
    let flags = (0..<count).map { index in
      let next = index + 1 < count ? #", "prerequisites": [{"key": "f\#(index + 1)", "variation": 0}]"# : ""
      return #""f\#(index)": {"key": "f\#(index)", "on": true, "variations": [true, false], "fallthrough": {"variation": 0}, "offVariation": 1\#(next)}"#
    }
    return try LaunchDarklyFlagData(json: Data(("{\"flags\": {" + flags.joined(separator: ", ") + "}}").utf8))
  }

  @Test func prerequisitesThatFanOutAreEvaluatedOnceEach() throws {
    // 2^60 paths: evaluated path by path this would never end.
    let detail = LaunchDarklyEvaluator(data: try fanOut(levels: 60)).variationDetail("f0a", context: context)
    #expect(detail.variationIndex == 0 && detail.reason == "FALLTHROUGH")
  }

  @Test func aChainUpToTheBoundIsEvaluatedAndADeeperOneIsMalformed() throws {
    let bound = LaunchDarklyEvaluator.deepestChain
    let within = LaunchDarklyEvaluator(data: try chain(bound)).variationDetail("f0", context: context)
    #expect(within.variationIndex == 0 && within.reason == "FALLTHROUGH")
    // 30,000 flags: a recursion as deep would overflow the stack.
    let deep = LaunchDarklyEvaluator(data: try chain(30_000)).variationDetail("f0", context: context)
    #expect(deep.variationIndex == nil)
    #expect(deep.reason == "ERROR MALFORMED_FLAG (prerequisites nest deeper than \(bound) flags)")
  }

  /// Segment s(k)b holds the context when s(k+1)a or s(k+1)b does; s(k)a asks the same and then an
  /// attribute the context lacks, so it never holds, but only once both of its children are decided:
  /// evaluated path by path, 2^levels segment lookups. The last level's b includes user-1 by key.
  @Test func segmentsThatReferToSegmentsAreBoundedAndRemembered() throws {
    func segments(levels: Int) -> String {
      (0..<levels).flatMap { level in
        let children = #"{"attribute": "", "op": "segmentMatch", "values": ["s\#(level + 1)a", "s\#(level + 1)b"]}"#
        return level + 1 < levels
          ? [
            #""s\#(level)a": {"key": "s\#(level)a", "rules": [{"clauses": [\#(children), {"attribute": "plan", "op": "in", "values": ["never"]}]}]}"#,
            #""s\#(level)b": {"key": "s\#(level)b", "rules": [{"clauses": [\#(children)]}]}"#,
          ]
          : [#""s\#(level)a": {"key": "s\#(level)a", "included": []}"#, #""s\#(level)b": {"key": "s\#(level)b", "included": ["user-1"]}"#]
      }.joined(separator: ", ")
    }
    func flagData(levels: Int) throws -> LaunchDarklyFlagData {
      try LaunchDarklyFlagData(json: Data(#"""
        {"flags": {"f": {"key": "f", "on": true, "variations": [true, false], "offVariation": 1, "fallthrough": {"variation": 1},
          "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["s0b"]}], "variation": 0}]}},
         "segments": {\#(segments(levels: levels))}}
        """#.utf8))
    }
    let remembered = LaunchDarklyEvaluator(data: try flagData(levels: 60)).variationDetail("f", context: context)
    #expect(remembered.variationIndex == 0 && remembered.reason == "RULE_MATCH 0")
    let deep = LaunchDarklyEvaluator(data: try flagData(levels: 1_000)).variationDetail("f", context: context)
    #expect(deep.reason == "ERROR MALFORMED_FLAG (segments refer to segments deeper than \(LaunchDarklyEvaluator.deepestChain))")
  }

  /// Statsig gates whose conditions each pass two gates of the next level, 40 levels down.
  @Test func statsigGatesThatFanOutAreEvaluatedOnceEach() throws {
    let levels = 40
    let gates = (0..<levels).flatMap { level in
      ["a", "b"].map { side in
        let conditions = level + 1 < levels
          ? #"[{"type": "pass_gate", "targetValue": "g\#(level + 1)a"}, {"type": "pass_gate", "targetValue": "g\#(level + 1)b"}]"#
          : #"[{"type": "public"}]"#
        return #"{"name": "g\#(level)\#(side)", "enabled": true, "entity": "feature_gate", "rules": [{"id": "r\#(level)", "passPercentage": 100, "conditions": \#(conditions)}]}"#
      }
    }
    let specs = try StatsigSpecs(json: Data((#"{"time": 1, "feature_gates": ["# + gates.joined(separator: ", ") + "]}").utf8))
    let result = StatsigEvaluator(specs: specs, now: Date(timeIntervalSince1970: 0)).checkGate("g0a", user: StatsigUser(userID: "u", attributes: [:]))
    #expect(result.passed)
  }
}
