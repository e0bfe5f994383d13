import Foundation
import Results
import ScenarioFormat
import Testing

@testable import Simulation

/// docs/rules/DisplayedOnce.md: an experiment displayed at a device's first
/// launch after install, or at its first launch of each version, rather than
/// at every launch; displayed-once.json's Onboarding and WhatsNew.
@Suite struct DisplayedOnceTests {
  /// Exact for every device: Onboarding (slot 0) is displayed at the first
  /// launch of a device installed in the run and never again; a device
  /// installed before day 0 is never shown it.
  @Test func anOnboardingIsShownAtANewDevicesFirstLaunchOnly() throws {
    for history in histories(try scenario("displayed-once", devices: 3_000)) {
      let shown = history.launches.indices.filter { history.launches[$0].displayed[0] }
      #expect(shown == (history.installDay == nil || history.launches.isEmpty ? [] : [0]), "device \(history.device)")
    }
  }

  /// Exact for every device: WhatsNew (slot 1) is displayed at the first
  /// launch of each version the device runs, except the version a device
  /// installed before day 0 was already running.
  @Test func whatsNewIsShownAtTheFirstLaunchOfEachVersion() throws {
    for history in histories(try scenario("displayed-once", devices: 3_000)) {
      for (index, launch) in history.launches.enumerated() {
        let firstOfVersion = launch.launchOfVersion == 1 && (history.installDay != nil || index > 0)
        #expect(launch.displayed[1] == firstOfVersion, "device \(history.device), launch \(index + 1)")
      }
    }
  }

  /// 2.0 deletes B: B's devices draw again, but shown the onboarding once,
  /// nobody is shown two variants, and the devices shown one are exactly the
  /// new ones that launched. Shown at every launch, the same plan shows most
  /// of B's devices a second variant: the contamination the plan does not have.
  @Test func aDeletedVariantContaminatesNobodyShownOnce() async throws {
    let plan = try scenario("displayed-once", devices: 3_000)
    let onboarding = try #require(await run(plan).experiment("Onboarding"))
    #expect(onboarding.variants.map(\.contaminated) == [0, 0, 0])
    let newDevices = histories(plan).filter { $0.installDay != nil && !$0.launches.isEmpty }.count
    #expect(onboarding.variants.map(\.exposed).reduce(0, +) == newDevices)

    var everyLaunch = plan
    everyLaunch.displayMoments = [:]
    let shownAlways = try #require(await run(everyLaunch).experiment("Onboarding")?.variant("B"))
    #expect(Double(shownAlways.contaminated) > 0.9 * Double(shownAlways.exposed), "\(shownAlways.contaminated) of \(shownAlways.exposed)")
  }
}
