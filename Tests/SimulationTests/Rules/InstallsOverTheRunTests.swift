import Foundation
import Results
import ScenarioFormat
import Testing

@testable import Simulation

/// docs/rules/InstallsOverTheRun.md: devices install before day 0 or on a day
/// of the run by the schedule's shares, a new device installs the newest
/// version released by its install day and opens it that day, and only
/// devices that ran a version can be moved by the next one.
@Suite struct InstallsOverTheRunTests {
  /// The committed scenario at `devices` devices, and each device's history.
  private func histories(devices: Int) throws -> (Scenario, [DeviceHistory]) {
    let plan = try scenario("installs-over-the-run", devices: devices)
    return (plan, SimulationTests.histories(plan))
  }

  /// The schedule of installs-over-the-run.json: 40,000 before day 0, 1,000
  /// a day, 5,000 more a day on days 20 to 22, of 85,000.
  @Test func aDrawFallsOnTheDayWhoseShareCoversIt() throws {
    let tables = InstallTables(scenario: try scenario("installs-over-the-run"))
    #expect(tables.installDay(forUnit: 0) == InstallTables.beforeRun)
    #expect(tables.installDay(forUnit: 0.47) == InstallTables.beforeRun)  // 40,000 / 85,000 = 0.4706
    #expect(tables.installDay(forUnit: 0.471) == 0)  // to 41,000 / 85,000 = 0.4824
    #expect(tables.installDay(forUnit: 0.483) == 1)
    #expect(tables.installDay(forUnit: 0.74) == 20)  // 60,000 to 66,000 of 85,000: 0.7059 to 0.7765
    #expect(tables.installDay(forUnit: 0.999) == 29)
    #expect(tables.installDay(forUnit: 0x1.fffffffffffffp-1) == 29)
    #expect(tables.versionOnDay == Array(repeating: 0, count: 10) + Array(repeating: 1, count: 20))
  }

  /// A draw above the sums' rounding lands on the last day with installs,
  /// never on a day the schedule gives none.
  @Test func noDeviceInstallsOnADayWithoutInstalls() throws {
    var plan = try scenario("installs-over-the-run")
    plan.population.installs = InstallSchedule(
      existing: 1, daily: 0, campaigns: [InstallSchedule.Campaign(day: 2, days: 1, daily: 2)])
    let tables = InstallTables(scenario: plan)
    #expect(tables.installDay(forUnit: 0.3) == InstallTables.beforeRun)
    #expect(tables.installDay(forUnit: 0.34) == 2)
    #expect(tables.installDay(forUnit: 0x1.fffffffffffffp-1) == 2)
  }

  /// A word of launch draws keeps none before the install and adds one on its day.
  @Test func launchesBeginOnTheInstallDay() {
    #expect(DeviceSimulator.launchDays(0b1010_0101, from: 0) == 0b1010_0101)
    #expect(DeviceSimulator.launchDays(0b1010_0101, from: 1) == 0b1010_0110)
    #expect(DeviceSimulator.launchDays(0b1010_0101, from: 3) == 0b1010_1000)
    #expect(DeviceSimulator.launchDays(UInt64.max, from: 63) == 1 << 63)
    #expect(DeviceSimulator.launchDays(UInt64.max, from: 64) == 0)
  }

  /// Over 6,000 devices the shares of the schedule hold within 4.5 binomial
  /// standard errors: 47.06% before day 0, 21.18% on the three campaign days.
  @Test func devicesArriveByTheSchedule() throws {
    let (_, histories) = try histories(devices: 6_000)
    let existing = histories.filter { $0.installDay == nil }.count
    #expect(withinBinomialBound(existing, of: histories.count, p: 40_000.0 / 85_000), "\(existing)")
    let campaign = histories.filter { (20...22).contains($0.installDay ?? -1) }.count
    #expect(withinBinomialBound(campaign, of: histories.count, p: 18_000.0 / 85_000), "\(campaign)")
    let ordinaryDay = histories.filter { $0.installDay == 5 }.count
    #expect(withinBinomialBound(ordinaryDay, of: histories.count, p: 1_000.0 / 85_000), "\(ordinaryDay)")
  }

  /// Exact for every device: a new device's first launch is on its install
  /// day, of the newest version released by then (2.0 from day 10), and it
  /// never runs an older one; a device installed before day 0 starts on 1.0.
  @Test func aNewDeviceInstallsTheNewestVersionAndOpensItThatDay() throws {
    let (_, histories) = try histories(devices: 3_000)
    for history in histories {
      guard let installDay = history.installDay else {
        #expect(history.launches.first.map { $0.version == 0 } ?? true, "device \(history.device)")
        continue
      }
      let newest = installDay >= 10 ? 1 : 0
      #expect(history.launches.first?.day == installDay, "device \(history.device)")
      #expect(history.launches.first?.version == newest, "device \(history.device)")
      #expect(history.launches.allSatisfy { $0.day >= installDay && $0.version >= newest }, "device \(history.device)")
    }
  }

  /// The run's 1.0 → 2.0 transition counts exactly the devices that launched
  /// both versions: a device that installed 2.0 is not moved by the deletion.
  @Test func onlyDevicesThatRanTheOldVersionAreMoved() async throws {
    let (plan, histories) = try histories(devices: 3_000)
    let upgraded = histories.filter { history in
      history.launches.contains { $0.version == 0 } && history.launches.contains { $0.version == 1 }
    }
    let document = await run(plan)
    let transition = try #require(document.experiment("Paywall")?.transition("1.0", "2.0"))
    #expect(transition.devices == upgraded.count)
    let installedTwo = histories.filter { ($0.installDay ?? -1) >= 10 }.count
    #expect(installedTwo > 0 && upgraded.count + installedTwo <= histories.count)
  }
}
