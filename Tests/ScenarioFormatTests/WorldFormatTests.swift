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

/// The stores' rollouts and the adoption beyond one exponential, read and
/// refused as docs/scenarios.md says.
@Suite struct StoreRolloutFormatTests {
  private func scenario(adoption: String = #"{"meanDelayDays": 1}"#, version: String = "") -> String {
    """
    {"name": "t", "seed": 1, "devices": 10, "days": 30, "versions": [{"version": "1.0", "releaseDay": 0},
      {"version": "2.0", "releaseDay": 10, "adoption": \(adoption)\(version)}]}
    """
  }

  @Test func aRolloutAndARequiredVersionAreRead() throws {
    let (read, _) = try parse(scenario(
      adoption: #"{"meanDelayDays": 4, "automaticShare": 0.6}"#,
      version: #", "requiredFromDay": 20, "rollout": {"appStorePhasedRelease": {"pauses": [{"day": 12, "days": 2}]}, "#
        + #""googlePlayStages": [{"day": 10, "share": 0.1}, {"day": 14, "halt": true}, {"day": 16, "share": 1}]}"#))
    let version = read.versions[1]
    #expect(version.adoption.automaticShare == 0.6 && version.requiredFromDay == 20)
    #expect(version.rollout?.appStorePhasedRelease == PhasedRelease(pauses: [DayRange(day: 12, days: 2)]))
    #expect(version.rollout?.googlePlayStages.map(\.share) == [0.1, 0, 1])
  }

  @Test func aCurveIsRead() throws {
    let (read, _) = try parse(scenario(adoption: #"{"curve": [{"day": 1, "share": 0.3}, {"day": 7, "share": 0.8}]}"#))
    #expect(read.versions[1].adoption.curve == [AdoptionPoint(day: 1, share: 0.3), AdoptionPoint(day: 7, share: 0.8)])
  }

  /// A fitted curve says where each share lies; each end is a curve the plan runs at (`--world-ends`).
  @Test func aCurvesIntervalsAreReadAndEachEndIsACurve() throws {
    let (read, _) = try parse(scenario(
      adoption: #"{"curve": [{"day": 1, "share": 0.3, "low": 0.25, "high": 0.36}, {"day": 7, "share": 0.8, "low": 0.76, "high": 0.83}]}"#))
    #expect(
      read.versions[1].adoption.curve == [
        AdoptionPoint(day: 1, share: 0.3, interval: 0.25...0.36), AdoptionPoint(day: 7, share: 0.8, interval: 0.76...0.83),
      ])
    #expect(read.hasAdoptionIntervals)
    #expect(read.atAdoptionEnd(.slowest).versions[1].adoption.curve == [AdoptionPoint(day: 1, share: 0.25), AdoptionPoint(day: 7, share: 0.76)])
    #expect(read.atAdoptionEnd(.fastest).versions[1].adoption.curve == [AdoptionPoint(day: 1, share: 0.36), AdoptionPoint(day: 7, share: 0.83)])
    let (plain, _) = try parse(scenario(adoption: #"{"curve": [{"day": 1, "share": 0.3}]}"#))
    #expect(!plain.hasAdoptionIntervals && plain.atAdoptionEnd(.slowest) == plain)
  }

  @Test func badIntervalsAreRefusedByField() {
    let cases: [(String, String)] = [
      (#"{"curve": [{"day": 1, "share": 0.3, "low": 0.2}]}"#,
       #"versions[1].adoption.curve[0].low: needs both 'low' and 'high': the interval the share lies in, e.g. {"day": 7, "share": 0.6, "low": 0.57, "high": 0.63}"#),
      (#"{"curve": [{"day": 1, "share": 0.3, "low": 0.35, "high": 0.4}]}"#,
       "versions[1].adoption.curve[0].low: must not exceed the point's share 0.3"),
      (#"{"curve": [{"day": 1, "share": 0.3, "low": 0.2, "high": 0.29}]}"#,
       "versions[1].adoption.curve[0].high: must not be below the point's share 0.3"),
      (#"{"curve": [{"day": 1, "share": 0.3, "low": 0.2, "high": 0.4}, {"day": 2, "share": 0.5}]}"#,
       "versions[1].adoption.curve[1]: gives 'low' and 'high' where the curve's first point does not, or the other way round: give an interval on every point or on none"),
      (#"{"curve": [{"day": 1, "share": 0.3, "low": 0.2, "high": 0.6}, {"day": 2, "share": 0.5, "low": 0.4, "high": 0.55}]}"#,
       "versions[1].adoption.curve[1].high: must not fall below the previous point's high 0.6: each end of the interval is a curve"),
      (#"{"curve": [{"day": 1, "share": 0.3, "low": 0.25, "high": 0.4}, {"day": 2, "share": 0.5, "low": 0.2, "high": 0.55}]}"#,
       "versions[1].adoption.curve[1].low: must not fall below the previous point's low 0.25: each end of the interval is a curve"),
    ]
    for (adoption, message) in cases {
      expectScenarioError(scenario(adoption: adoption), message)
    }
  }

  @Test func badRolloutsAreRefusedByField() {
    let cases: [(String, String, String)] = [
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"appStorePhasedRelease": {"pauses": [{"day": 10, "days": 2}]}}"#,
       "versions[1].rollout.appStorePhasedRelease.pauses[0].day: must be after the release day 10: a pause stops a release under way"),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"appStorePhasedRelease": {"pauses": [{"day": 11, "days": 20}, {"day": 22, "days": 2}]}}"#,
       "versions[1].rollout.appStorePhasedRelease.pauses[1].day: must follow the previous pause, which lasts to day 30"),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"appStorePhasedRelease": {"pauses": [{"day": 11, "days": 20}, {"day": 29, "days": 11}]}}"#,
       "versions[1].rollout.appStorePhasedRelease.pauses[1].day: must follow the previous pause, which lasts to day 30"),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"appStorePhasedRelease": {"pauses": [{"day": 35, "days": 2}]}}"#,
       "versions[1].rollout.appStorePhasedRelease.pauses[0].day: must be a day of the run, at most 29, not 35"),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"googlePlayStages": [{"day": 9, "share": 0.1}]}"#,
       "versions[1].rollout.googlePlayStages[0].day: must not be before the release day 10"),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"googlePlayStages": [{"day": 10, "share": 0.5}, {"day": 12, "share": 0.2}]}"#,
       "versions[1].rollout.googlePlayStages[1].share: must not fall below the rollout's 0.5: Google Play raises a staged rollout or halts it"),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"googlePlayStages": [{"day": 10}]}"#,
       #"versions[1].rollout.googlePlayStages[0].share: is required, e.g. {"day": 10, "share": 0.2}, or "halt": true"#),
      (#"{"meanDelayDays": 1}"#, #", "rollout": {"googlePlayStages": [{"day": 10, "halt": true, "share": 0.3}]}"#,
       "versions[1].rollout.googlePlayStages[0].share: cannot be given with 'halt': a halted rollout serves nobody new"),
      (#"{"curve": [{"day": 2, "share": 0.5}, {"day": 1, "share": 0.6}]}"#, "",
       "versions[1].adoption.curve[1].day: must be later than the previous point's day 2: list points in order"),
      (#"{"curve": [{"day": 1, "share": 0.5}, {"day": 2, "share": 0.4}]}"#, "",
       "versions[1].adoption.curve[1].share: must not fall below the previous point's 0.5: a share updated only grows"),
      (#"{"curve": [{"day": 1, "share": 0.5}], "meanDelayDays": 3}"#, "",
       "versions[1].adoption.meanDelayDays: cannot be given with 'curve': the curve is the observed adoption, delays and never-upgraders included"),
      (#"{"automaticShare": 0.5}"#, "",
       #"versions[1].adoption.meanDelayDays: is required, or an observed 'curve', e.g. {"meanDelayDays": 7} or {"curve": [{"day": 7, "share": 0.6}]}"#),
      (#"{"meanDelayDays": 1}"#, #", "requiredFromDay": 5"#, "versions[1].requiredFromDay: must lie between 10 and 29, not 5"),
    ]
    for (adoption, version, message) in cases {
      expectScenarioError(scenario(adoption: adoption, version: version), message)
    }
  }

  /// Apple's limit: 30 days of pauses in all, here 20 + 11 over a 60-day run.
  @Test func aPhasedReleaseIsPausedForThirtyDaysAtMost() {
    expectScenarioError(
      scenario(version: #", "rollout": {"appStorePhasedRelease": {"pauses": [{"day": 11, "days": 20}, {"day": 31, "days": 11}]}}"#)
        .replacingOccurrences(of: #""days": 30"#, with: #""days": 60"#),
      "versions[1].rollout.appStorePhasedRelease: pauses 31 days: Apple lets a phased release be paused for 30 days in all")
  }

  @Test func theFirstVersionHasNoRolloutNorRequiredDay() {
    expectScenarioError(
      #"{"name": "t", "seed": 1, "devices": 10, "days": 30, "versions": [{"version": "1.0", "releaseDay": 0, "requiredFromDay": 3}]}"#,
      "versions[0].requiredFromDay: applies to updates: every device runs the first version from day 0")
  }
}

/// Sessions and activity: read, and refused by field.
@Suite struct ActivityFormatTests {
  private func population(_ text: String) -> String {
    #"{"name": "t", "seed": 1, "devices": 10, "days": 30, "population": \#(text), "versions": [{"version": "1.0", "releaseDay": 0}]}"#
  }

  @Test func activityIsRead() throws {
    let (read, _) = try parse(population(
      #"{"segments": [{"name": "a", "share": 1, "activity": {"mean": 0.3, "concentration": 2}, "launchesPerActiveDay": 2.5, "#
        + #""inactivityHazard": 0.02, "firstWeekInactivityHazard": 0.1}], "weekdayFactors": [1, 1, 1, 1, 1, 0.5, 0.5], "#
        + #""firstWeekday": "Saturday"}"#))
    let segment = read.population.segments[0]
    #expect(segment.activity == Activity(
      probability: BetaDistribution(mean: 0.3, concentration: 2), launchesPerActiveDay: 2.5, inactivityHazard: 0.02,
      firstWeekInactivityHazard: 0.1))
    #expect(segment.dailyLaunchProbability == 0.3)
    #expect(read.population.weekdayFactors == [1, 1, 1, 1, 1, 0.5, 0.5] && read.population.firstWeekday == .saturday)
  }

  @Test func badActivityIsRefusedByField() {
    let cases = [
      (#"{"segments": [{"name": "a", "share": 1, "activity": {"mean": 0.3, "concentration": 2}, "dailyLaunchProbability": 0.3}]}"#,
       "population.segments[0].dailyLaunchProbability: cannot be given with 'activity': the distribution's mean is the segment's daily probability"),
      (#"{"segments": [{"name": "a", "share": 1, "activity": {"mean": 1, "concentration": 2}}]}"#,
       "population.segments[0].activity.mean: must lie strictly between 0 and 1"),
      (#"{"segments": [{"name": "a", "share": 1, "activity": {"mean": 0.999, "concentration": 0.5}}]}"#,
       "population.segments[0].activity.concentration: is too small for a mean of 0.999: mean × concentration and (1 − mean) × concentration must be at least 0.01"),
      (#"{"segments": [{"name": "a", "share": 1, "inactivityHazard": 1}]}"#,
       "population.segments[0].inactivityHazard: must lie between 0 and 1, 1 excluded: a device stops on a day with this chance"),
      (#"{"segments": [{"name": "a", "share": 1, "firstWeekInactivityHazard": -0.1}]}"#,
       "population.segments[0].firstWeekInactivityHazard: must lie between 0 and 1, 1 excluded: a new device stops on a day of its first week with this chance"),
      (#"{"segments": [{"name": "a", "share": 1, "launchesPerActiveDay": 0.5}]}"#,
       "population.segments[0].launchesPerActiveDay: must lie between 1 and 6, not 0.5"),
      (#"{"segments": [{"name": "a", "share": 1}], "weekdayFactors": [0, 0, 0, 0, 0, 0, 0]}"#,
       "population.weekdayFactors: must let devices launch on some weekday"),
      (#"{"segments": [{"name": "a", "share": 1}], "firstWeekday": "funday"}"#,
       #"population.firstWeekday: must be a day of the week, e.g. "monday", not 'funday'"#),
    ]
    for (text, message) in cases {
      expectScenarioError(population(text), message)
    }
  }
}
