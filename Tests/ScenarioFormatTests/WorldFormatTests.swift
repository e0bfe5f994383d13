import Foundation
import ScenarioFormat
import Testing

/// The world's fields (docs/world.md): an install schedule in the
/// population and display moments by experiment, read and refused as
/// docs/scenarios.md says.
@Suite struct WorldFormatTests {
  private func population(_ installs: String) -> String {
    minimalScenario(extra: #", "population": {"segments": [{"name": "all", "share": 1}], "installs": \#(installs)}"#)
  }

  @Test func anInstallScheduleIsRead() throws {
    let (scenario, _) = try parse(population(
      #"{"existing": 40000, "daily": 1000, "campaigns": [{"day": 20, "days": 3, "daily": 5000}]}"#))
    let installs = try #require(scenario.population.installs)
    #expect(installs == InstallSchedule(
      existing: 40_000, daily: 1_000, campaigns: [InstallSchedule.Campaign(day: 20, days: 3, daily: 5_000)]))
  }

  /// The schedule's counts over a 30-day run: 40,000 + 30 × 1,000 + 3 × 5,000 = 85,000.
  @Test func theSharesAreTheCountsOverTheirTotal() {
    let installs = InstallSchedule(
      existing: 40_000, daily: 1_000, campaigns: [InstallSchedule.Campaign(day: 20, days: 3, daily: 5_000)])
    let counts = installs.newDevices(days: 30)
    #expect(counts[19] == 1_000 && counts[20] == 6_000 && counts[22] == 6_000 && counts[23] == 1_000)
    #expect(counts.reduce(0, +) == 45_000)
    let shares = installs.shares(days: 30)
    #expect(shares.existing == 40_000.0 / 85_000)
    #expect(shares.daily[0] == 1_000.0 / 85_000 && shares.daily[21] == 6_000.0 / 85_000)
  }

  @Test func aScenarioWithoutInstallsHasNone() throws {
    #expect(try parse(minimalScenario()).scenario.population.installs == nil)
  }

  @Test func badSchedulesAreRefusedByField() {
    expectScenarioError(
      population(#"{"existing": 0}"#),
      #"population.installs: installs no device: give 'existing' (devices installed before day 0) or 'daily', e.g. {"existing": 50000, "daily": 800}"#)
    expectScenarioError(population(#"{"daily": -5}"#), "population.installs.daily: must lie between 0 and 1000000000000, not -5")
    expectScenarioError(
      population(#"{"daily": 10, "campaigns": [{"day": 28, "days": 5, "daily": 100}]}"#),
      "population.installs.campaigns[0].days: must end by the run's last day: the campaign starts on day 28 of a run of 30 days, so at most 2")
    expectScenarioError(
      population(#"{"daily": 10, "campaigns": [{"day": 30, "days": 1, "daily": 100}]}"#),
      "population.installs.campaigns[0].day: must lie between 0 and 29, not 30")
    expectScenarioError(
      population(#"{"daily": 10, "campaigns": [{"day": 3, "days": 1}]}"#),
      "population.installs.campaigns[0].daily: is required")
  }

  @Test func displayMomentsAreRead() throws {
    let (scenario, _) = try parse(minimalScenario(extra: #", "displayMoment": {"Theme": "firstLaunch"}"#))
    #expect(scenario.displayMoment(of: "Theme") == .firstLaunch)
    #expect(scenario.displayMoment(of: "Other") == .everyLaunch)
  }

  @Test func badDisplayMomentsAreRefusedByField() {
    expectScenarioError(
      minimalScenario(extra: #", "displayMoment": {"Theme": "once"}"#),
      "displayMoment.Theme: must be one of everyLaunch, firstLaunch, firstLaunchOfVersion, not 'once'")
    expectScenarioError(
      minimalScenario(extra: #", "displayMoment": {"Paywall": "firstLaunch"}"#),
      "displayMoment.Paywall: 'Paywall' is not an experiment of the scenario (experiments: Theme)")
  }
}

/// The display moments an editor offers are the reader's, in its order.
@Suite struct DisplayMomentSchemaTests {
  @Test func theSchemaOffersEveryDisplayMoment() throws {
    let url = repositoryRoot.appendingPathComponent("docs/scenario.schema.json")
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let scenario = try #require((schema["$defs"] as? [String: Any])?["scenario"] as? [String: Any])
    let moment = try #require((scenario["properties"] as? [String: Any])?["displayMoment"] as? [String: Any])
    let values = (moment["additionalProperties"] as? [String: Any])?["enum"] as? [String]
    #expect(values == DisplayMoment.allCases.map(\.rawValue))
  }
}
