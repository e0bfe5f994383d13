import BenchCLI
import Testing

@Suite struct DescribeCommandTests {
  private let scenario = """
    { "name": "tiny", "description": "Two releases.", "seed": 7, "devices": 100, "days": 30,
      "versions": [
        { "version": "1.0", "releaseDay": 0, "experiments": [
          { "name": "Theme", "keys": ["color"], "tokenRange": [0, 0.5],
            "variants": [ { "name": "Blue", "weight": 2, "assignments": { "color": "blue" } },
                          { "name": "Red", "assignments": { "color": "red" } } ] },
          { "name": "Title", "keys": ["color"], "tokenRange": [0.4, 1],
            "variants": [ { "name": "Plain", "assignments": { "color": "grey" } } ] } ] },
        { "version": "2.0", "releaseDay": 10, "adoption": { "meanDelayDays": 3.5, "neverUpgradeShare": 0.1 },
          "stabilizeOnLaunch": 2, "experiments": [
          { "name": "Theme", "keys": ["color"], "tokenRange": [0, 0.5],
            "variants": [ { "name": "Blue", "weight": 2, "assignments": { "color": "blue" } },
                          { "name": "Green", "assignments": { "color": "green" } } ] } ] } ] }
    """

  @Test func itDescribesThePlanVersionByVersion() throws {
    let result = try BenchProcess.run(["describe", try BenchProcess.temporaryFile(scenario)])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput == """
      Scenario tiny: Two releases.
      Seed 7, 100 devices, 30 days, naming strict.

      Version 1.0, released on day 0, installed by every device
        Theme: keys color; active for tokens in [0, 0.5); baseline Blue
          Blue: weight 2 (66.7%) color="blue"
          Red: weight 1 (33.3%) color="red"
        Title: keys color; active for tokens in [0.4, 1]; baseline Plain
          Plain: weight 1 (100.0%) color="grey"
        key conflict: Theme and Title share 'color' and are both active for tokens in [0.4, 0.5); on those devices the manager serves Theme, first in the version's order, and discards Title

      Version 2.0, released on day 10, mean upgrade delay 3.5 days, 10.0% never upgrade, calls stabilize on launch 2
        Theme: keys color; active for tokens in [0, 0.5); baseline Blue
          Blue: weight 2 (66.7%) color="blue"
          Green: weight 1 (33.3%) color="green"
        change from 1.0: Theme variant Red deleted: its devices select again among the current variants
        change from 1.0: Theme variant Green added: only devices deciding afresh can select it
        change from 1.0: Title removed: devices delete their record of it

      """)
  }

  /// Rule 4: a wider range reaches only devices that decide afresh, and
  /// `describe` says so for the version that widens it, not for one that narrows it.
  @Test func aWiderRangeSaysWhomItReaches() throws {
    func version(_ name: String, day: Int, range: String) -> String {
      """
      { "version": "\(name)", "releaseDay": \(day), "adoption": { "meanDelayDays": 1, "neverUpgradeShare": 0 }, "experiments": [
        { "name": "Theme", "keys": ["color"], "tokenRange": \(range),
          "variants": [ { "name": "Blue", "assignments": { "color": "blue" } } ] } ] }
      """
    }
    let file = try BenchProcess.temporaryFile("""
      { "name": "widen", "seed": 1, "devices": 10, "days": 30, "versions": [
        \(version("1.0", day: 0, range: "[0, 0.5]")), \(version("2.0", day: 10, range: "[0, 0.8]")),
        \(version("3.0", day: 20, range: "[0.1, 0.8]")) ] }
      """)
    let result = try BenchProcess.run(["describe", file])
    #expect(result.status == 0)
    let changes = result.standardOutput.split(separator: "\n").filter { $0.contains("change from") }.map(String.init)
    let rule = "devices keep their recorded status, active or inactive; only devices deciding afresh follow the new range"
    let widened = "the wider range reaches only fresh installs and devices that decide afresh (after a removal or a "
      + "deleted variant): devices that recorded Theme inactive stay inactive"
    let expected: [String] = [
      "  change from 1.0: Theme token range [0, 0.5) -> [0, 0.8): \(rule); \(widened)",
      "  change from 2.0: Theme token range [0, 0.8) -> [0.1, 0.8): \(rule)",
    ]
    #expect(changes == expected)
  }

  /// The service's changes and the enrollment rules are part of the plan `describe` prints.
  @Test func itDescribesTheServiceAndTheEnrollmentRules() throws {
    let service = try BenchProcess.run(["describe", committedScenario("compare-frameworks")])
    let serviceLines = service.standardOutput.split(separator: "\n").map(String.init)
    #expect(serviceLines.contains("Service: optimizely, decisions stored on the device (its mobile SDKs' default)"))
    #expect(serviceLines.contains("  day 14: Paywall traffic set to 100%"))
    #expect(serviceLines.contains("  day 50: Onboarding concluded with Short"))
    let enrollment = try BenchProcess.run(["describe", committedScenario("devtodev-handshake")])
    #expect(enrollment.standardOutput.contains(
      "\nEnrollment: ButtonColor enrolls at run, through devtodev's handshake (40.0% of launches go to the background)\n"))
  }

  /// The metrics with their roles, baselines and true lifts, and the
  /// settings the decision uses, as the issue's new user asked.
  @Test func itListsTheMetricsTheirRolesAndTheDecision() throws {
    let upgrade = try BenchProcess.run(["describe", committedScenario("guardrail")])
    #expect(upgrade.standardOutput.hasSuffix("""

      Metrics:
        converted (conversion), success metric, baseline rate 30.0%
          true lifts in Pricing: Discount +10.0%
        revenue (continuous), guardrail, margin 5.0%, baseline mean 10
          true lifts in Pricing: Discount −5.0%
      Analysis: alpha 0.05, power 0.8, planned lift 20.0%, holm correction per metric, first-exposure attribution, deterioration alpha 0.01.
      Decision: a variant ships when one of converted improves significantly, every guardrail is shown safe and nothing gets significantly worse (docs/statistics.md).

      """))
  }

  @Test func everyCommittedScenarioIsValid() throws {
    let names = try committedScenarioNames()
    #expect(names.count >= 13)
    for name in names {
      let result = try BenchProcess.run(["describe", committedScenario(name)])
      #expect(result.status == 0, "\(name): \(result.standardError)")
    }
  }
}

/// A range that shrinks leaves its active devices behind (rule 4), where
/// another experiment sharing a key may be active: `describe` names the
/// clash the run will count, though the version's ranges are disjoint.
@Suite struct CarriedClashTests {
  @Test func theUpgradePlansClashIsNamed() throws {
    let result = try BenchProcess.run(["describe", committedScenario("upgrade")])
    let clashes = result.standardOutput.split(separator: "\n").filter { $0.contains("key clash carried over") }
    #expect(clashes.count == 2)
    #expect(clashes.first == """
        key clash carried over: SubscriptionScreenTheme was active for tokens in [0, 0.5) in 2.0 and its devices keep \
      that status, so for tokens in [0.4, 0.5), where OnboardingLength is active now, both claim 'paywallTitle'; on those \
      devices the manager serves SubscriptionScreenTheme, first in the version's order, and discards OnboardingLength
      """)
    // A scenario whose ranges never meet a shared key says nothing of it.
    let clean = try BenchProcess.run(["describe", committedScenario("true-effect")])
    #expect(!clean.standardOutput.contains("clash"))
  }
}
