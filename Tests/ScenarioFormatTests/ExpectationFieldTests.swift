import Foundation
import Testing

@testable import ScenarioFormat

/// A plan's `expect` list is read as strictly as the rest of the scenario:
/// each measure takes its own fields, names must exist, bounds must be possible.
@Suite struct ExpectationFieldTests {
  private func expectations(_ list: String) throws(ScenarioError) -> [PlanExpectation] {
    try parse(minimalScenario(extra: #", "expect": "# + list)).scenario.expectations
  }

  @Test func eachMeasureIsReadWithItsBound() throws {
    let read = try expectations(#"""
      [ { "that": "reshuffled", "experiment": "Theme", "atMost": 0.01 },
        { "that": "mixed", "experiment": "Theme", "atMost": 0 },
        { "that": "rightShip", "experiment": "Theme", "atLeast": 0.8 },
        { "that": "wrongShip", "experiment": "Theme", "atMost": 0.05 },
        { "that": "keyClashes", "key": "color", "atMost": 10 },
        { "that": "sampleRatioMismatch", "experiment": "Theme", "fires": false },
        { "that": "rule", "rule": "DeletedVariant", "fires": true } ]
      """#)
    #expect(read.map(\.measure) == [
      .reshuffled(experiment: "Theme", version: nil), .mixed(experiment: "Theme"), .rightShip(experiment: "Theme"),
      .wrongShip(experiment: "Theme"), .keyClashes(key: "color"), .sampleRatioMismatch(experiment: "Theme"),
      .rule("DeletedVariant"),
    ])
    #expect(read.map(\.bound) == [.atMost(0.01), .atMost(0), .atLeast(0.8), .atMost(0.05), .atMost(10), .atMost(0), .atLeast(1)])
    #expect(read.map(\.path) == (0..<7).map { "expect[\($0)]" })
    #expect(try parse(minimalScenario()).scenario.expectations.isEmpty)
    let enrolled = try parse(minimalScenario(
      extra: #", "enrollment": { "Theme": {} }, "expect": [ { "that": "neverEnrolled", "experiment": "Theme", "atMost": 0.2 } ]"#))
      .scenario.expectations
    #expect(enrolled.map(\.measure) == [.neverEnrolled(experiment: "Theme")] && enrolled.map(\.bound) == [.atMost(0.2)])
  }

  @Test func errorsNameTheFieldAndTheFix() {
    func expectError(_ list: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
      expectScenarioError(minimalScenario(extra: #", "expect": "# + list), message, sourceLocation: sourceLocation)
    }
    expectError(
      #"[ { "that": "reshufled", "experiment": "Theme", "atMost": 0.01 } ]"#,
      #"expect[0].that: must be one of "reshuffled", "mixed", "moved", "rightShip", "wrongShip", "neverEnrolled", "keyClashes", "sampleRatioMismatch", "rule""#)
    expectError(#"[ { "experiment": "Theme", "atMost": 0.01 } ]"#, "expect[0].that: is required")
    expectError(
      #"[ { "that": "mixed", "experiment": "Theme", "atMost": 0.01, "colour": 1 } ]"#,
      #"expect[0].colour: is not a known field (known: that, experiment, version, key, rule, atMost, atLeast, fires)"#)
    expectError(
      #"[ { "that": "rightShip", "experiment": "Theme", "atMost": 0.2 } ]"#,
      #"expect[0].atMost: does not go with "that": "rightShip", which takes "experiment", "atLeast""#)
    expectError(
      #"[ { "that": "mixed", "experiment": "Paywall", "atMost": 0.01 } ]"#,
      "expect[0].experiment: 'Paywall' is not an experiment of the scenario (experiments: Theme)")
    expectError(
      #"[ { "that": "mixed", "experiment": "Theme", "atMost": 5 } ]"#,
      "expect[0].atMost: must lie between 0 and 1, a share: e.g. 0.05 for 5%")
    expectError(#"[ { "that": "mixed", "experiment": "Theme", "atMost": "5%" } ]"#, "expect[0].atMost: must be a number, not a string")
    expectError(
      #"[ { "that": "keyClashes", "atMost": -1 } ]"#, "expect[0].atMost: must lie between 0 and 1000000000, not -1")
    expectError(
      #"[ { "that": "reshuffled", "experiment": "Theme", "version": "1.0", "atMost": 0.01 } ]"#,
      "expect[0].version: must be a version after the first, which devices upgrade into (versions: )")
    expectError(
      #"[ { "that": "moved", "experiment": "Theme", "atMost": 0.01 } ]"#,
      "expect[0].experiment: 'Theme' is not an experiment of the service: only a dashboard change moves one")
    expectError(
      #"[ { "that": "rule", "rule": "OptimizelyTrafficChange", "fires": false } ]"#,
      #"expect[0].rule: must name a rule whose devices a run counts: "AssignmentChange", "DeletedVariant", "ExperimentReAdded", "TokenRangeChange""#)
    expectError(#"[ { "that": "rule", "rule": "DeletedVariant", "fires": "no" } ]"#, "expect[0].fires: must be true or false")
    expectError(
      #"[ { "that": "neverEnrolled", "experiment": "Theme", "atMost": 0.1 } ]"#,
      "expect[0].experiment: 'Theme' has no enrollment rule: without one every device shown the experiment enrolls "
        + "(docs/scenarios.md, enrollment)")
    expectError(#"{ "that": "mixed" }"#, "expect: must be an array, not an object")
  }
}
