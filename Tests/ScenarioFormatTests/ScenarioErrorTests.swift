import Foundation
import ScenarioFormat
import Testing

/// Every bad input docs/scenarios.md lists, with the exact message it documents.
@Suite struct ScenarioErrorTests {
  private func expectError(_ text: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
      _ = try parse(text)
      Issue.record("expected the error \(expected)", sourceLocation: sourceLocation)
    } catch {
      #expect("\(error)" == expected, sourceLocation: sourceLocation)
    }
  }

  private func experiment(replacing old: String, with new: String) -> String {
    minimalScenario(experiments: defaultExperiment.replacingOccurrences(of: old, with: new))
  }

  @Test func aZeroWeight() {
    expectError(
      experiment(replacing: #""weight": 2"#, with: #""weight": 0"#),
      "versions[0].experiments[0].variants[0].weight: must be greater than 0")
  }

  @Test func aMisspeltField() {
    expectError(
      experiment(replacing: #""weight": 2"#, with: #""wieght": 2"#),
      "versions[0].experiments[0].variants[0].wieght: is not a known field; did you mean 'weight'? (known: name, weight, assignments)")
  }

  @Test func aMissingRequiredField() {
    expectError(
      minimalScenario().replacingOccurrences(of: #""devices": 100, "#, with: ""), "devices: is required")
  }

  @Test func aValueOfTheWrongType() {
    expectError(
      minimalScenario().replacingOccurrences(of: #""days": 30"#, with: #""days": "30""#),
      "days: must be a whole number, not a string")
  }

  @Test func aVariantMissingAKey() {
    expectError(
      experiment(replacing: #"{ "color": "red" }"#, with: "{ }"),
      "versions[0].experiments[0].variants[1].assignments: variant Red must supply a value for key 'color'")
  }

  @Test func anAssignmentThatIsNeitherStringNorNumber() {
    expectError(
      experiment(replacing: #""color": "red""#, with: #""color": true"#),
      "versions[0].experiments[0].variants[1].assignments.color: must be a string or a number, not a boolean")
  }

  @Test func anEmptyTokenRange() {
    expectError(
      experiment(replacing: "[0, 0.5]", with: "[0.5, 0.5]"),
      "versions[0].experiments[0].tokenRange: [0.5, 0.5] is empty: the lower bound must be less than the upper bound")
  }

  @Test func aTokenRangeOutsideTheUnitInterval() {
    expectError(
      experiment(replacing: "[0, 0.5]", with: "[0.5, 2]"),
      "versions[0].experiments[0].tokenRange: [0.5, 2.0] must lie within [0, 1]")
  }

  @Test func anUnknownBaseline() {
    expectError(
      experiment(replacing: #""keys""#, with: #""baseline": "Green", "keys""#),
      "versions[0].experiments[0].baseline: 'Green' must be the name of one of the variants")
  }

  @Test func aNameAgainstTheConventions() {
    expectError(
      experiment(replacing: #""name": "Theme""#, with: #""name": "theme""#),
      "versions[0].experiments[0].name: experiment 'theme' should be UpperCamelCase, e.g. 'Theme', or set \"naming\": \"lenient\"")
  }

  @Test func versionsOutOfOrder() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 },
                      { "version": "2.0", "releaseDay": 0, "adoption": { "meanDelayDays": 3 } } ] }
      """
    expectError(text, "versions[1].releaseDay: must be later than 1.0's release day 0: list versions in release order")
  }

  @Test func aLaterVersionWithoutAdoption() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 }, { "version": "2.0", "releaseDay": 5 } ] }
      """
    expectError(
      text, #"versions[1].adoption: is required after the first version, e.g. {"meanDelayDays": 7, "neverUpgradeShare": 0.1}"#)
  }

  @Test func aReleaseAfterTheRunEnds() {
    let text = """
      { "name": "tiny", "seed": 7, "devices": 100, "days": 30,
        "versions": [ { "version": "1.0", "releaseDay": 0 },
                      { "version": "2.0", "releaseDay": 30, "adoption": { "meanDelayDays": 3 } } ] }
      """
    expectError(text, "versions[1].releaseDay: must be before the last day: the run lasts 30 days")
  }

  @Test func aNameThatCannotNameAFolder() {
    expectError(
      minimalScenario().replacingOccurrences(of: #""tiny""#, with: #""../up""#),
      #"name: must be letters, digits, '-' or '_' (it names the report's folder), e.g. "upgrade""#)
  }

  @Test func textThatIsNotJSON() throws {
    do {
      _ = try parse("{ \"name\": ")
      Issue.record("expected an error")
    } catch {
      #expect(error.path == "$")
      #expect(error.message.hasPrefix("is not valid JSON ("))
      #expect(error.message.hasSuffix("): check for a missing comma, quote or bracket"))
    }
  }

  @Test func aFileThatDoesNotExist() {
    #expect(throws: ScenarioError(path: "/nonexistent/x.json", message: "cannot be read: check that the file exists and is readable")) {
      try Scenario.load(path: "/nonexistent/x.json")
    }
  }
}
