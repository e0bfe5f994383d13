import Foundation
import Results
import ScenarioFormat
import Testing

@testable import Simulation

/// docs/rules/StoreRollouts.md: the App Store's phased release of automatic
/// updates, Google Play's staged rollout of updates and new installs, and a
/// required version, on store-rollouts.json (2.0 released on day 10).
@Suite struct StoreRolloutsTests {
  /// Apple's table (App Store Connect Help, "Release a version update in
  /// phases"): the share of automatic updaters on each of the seven days.
  @Test func applesPhasedReleaseTable() throws {
    #expect(PhasedRelease.dailyShares == [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0])
    #expect(PhasedRelease.longestPause == 30)
    let phased = try #require(try scenario("store-rollouts").versions[1].rollout?.appStorePhasedRelease)
    // Paused on days 13 and 14: the share stays at day 12's 5%.
    let shares = (9...19).map { phased.share(onDay: $0, releaseDay: 10) }
    #expect(shares == [0, 0.01, 0.02, 0.05, 0.05, 0.05, 0.10, 0.20, 0.50, 1, 1])
    #expect(phased.risingDays(releaseDay: 10).map(\.day) == [10, 11, 12, 15, 16, 17, 18])
    #expect(PhasedRelease().risingDays(releaseDay: 3).map(\.day) == Array(3...9))
  }

  /// Google Play's stages: a device is served from the first day its stage's
  /// share is above its draw; a halt serves nobody new, and a resumed rollout
  /// serves the same devices and more.
  @Test func googlePlaysStagesServeTheSameDevicesAgain() throws {
    let plan = try scenario("store-rollouts")
    let rollout = try #require(plan.versions[1].rollout)
    #expect((9...18).map { rollout.googlePlayShare(onDay: $0) } == [0, 0.1, 0.1, 0.3, 0.3, 0, 0, 0, 1, 1])
    let tables = StoreTables(scenario: plan)
    #expect(tables.playDay(version: 1, from: 10, unit: 0.05) == 10)
    #expect(tables.playDay(version: 1, from: 10, unit: 0.2) == 12)
    #expect(tables.playDay(version: 1, from: 14, unit: 0.05) == 17)
    #expect(tables.playDay(version: 1, from: 10, unit: 0.9) == 17)
    #expect(tables.playDay(version: 1, from: 3, unit: 0.05) == 10)
    #expect(tables.segmentStores == [.appStore, .googlePlay])
  }

  /// With every device updating automatically, the share of iOS devices
  /// updated by the end of each day of the phased release is Apple's share
  /// that day, and of Android devices the staged rollout's, each within 4.5
  /// binomial standard errors over 10,000 devices of each; nobody's update
  /// falls in the halt.
  @Test func automaticUpdatersFollowTheStores() throws {
    var plan = try scenario("store-rollouts", devices: 20_000)
    plan.population.installs = nil
    plan.versions[1].adoption = Adoption(meanDelayDays: 6, neverUpgradeShare: 0)
    plan.versions[1].adoption.automaticShare = 1
    let tables = StoreTables(scenario: plan)
    let phased = try #require(plan.versions[1].rollout?.appStorePhasedRelease)
    let rollout = try #require(plan.versions[1].rollout)
    let drawn = upgradeMoments(plan, version: 1)
    let moments = [0, 1].map { segment in drawn.filter { $0.segment == segment }.map(\.moment) }
    #expect(tables.isUsed)
    for day in 10...20 {
      let iOS = moments[0].filter { $0 < Double(day + 1) }.count
      #expect(withinBinomialBound(iOS, of: moments[0].count, p: phased.share(onDay: day, releaseDay: 10)), "iOS day \(day): \(iOS)")
    }
    for day in 10...13 {
      let android = moments[1].filter { $0 < Double(day + 1) }.count
      #expect(withinBinomialBound(android, of: moments[1].count, p: rollout.googlePlayShare(onDay: day)), "Android day \(day)")
    }
    #expect(moments[1].filter { (14..<17).contains($0) }.isEmpty)
    #expect(moments[1].allSatisfy { $0 < 18 })
  }

  /// Manual updates are not phased: with nobody updating automatically, the
  /// iOS devices updated a day after the release are 1 − e^(−1/6) of them.
  @Test func manualUpdatesAreNotPhased() throws {
    var plan = try scenario("store-rollouts", devices: 8_000)
    plan.population.installs = nil
    plan.versions[1].adoption = Adoption(meanDelayDays: 6, neverUpgradeShare: 0)
    let iOS = histories(plan).filter { $0.segment == 0 }
    let updated = iOS.filter { ($0.upgradeDays[1] ?? .infinity) < 11 }.count
    #expect(withinBinomialBound(updated, of: iOS.count, p: 1 - exp(-1.0 / 6)), "\(updated) of \(iOS.count)")
  }

  /// A new device installs the newest version its store serves it that day:
  /// every iOS device installed from day 10 installs 2.0; Android devices
  /// installed on days 12 and 13 (the 30% stage) install 2.0 in 30% of
  /// cases, on the halt's days none.
  @Test func newInstallsAreServedByTheStore() throws {
    let all = histories(try scenario("store-rollouts", devices: 40_000))
    let installs = all.filter { ($0.installDay ?? -1) >= 10 && ($0.installDay ?? 0) < 30 && !$0.launches.isEmpty }
    let iOS = installs.filter { $0.segment == 0 }
    #expect(!iOS.isEmpty && iOS.allSatisfy { $0.launches[0].version == 1 })
    let stage = installs.filter { $0.segment == 1 && (12...13).contains($0.installDay!) }
    let served = stage.filter { $0.launches[0].version == 1 }.count
    #expect(withinBinomialBound(served, of: stage.count, p: 0.3), "\(served) of \(stage.count)")
    let halted = installs.filter { $0.segment == 1 && (14...16).contains($0.installDay!) }
    let servedInHalt = halted.filter { $0.launches[0].version == 1 }
    // Only devices the rollout had already served before the halt: an
    // installing device is served by the day's share, which is 0.
    #expect(!halted.isEmpty && servedInHalt.isEmpty)
  }

  /// 3.0 is required from day 40: every launch from then runs it, exactly.
  @Test func aRequiredVersionIsRunFromItsDay() throws {
    for history in histories(try scenario("store-rollouts", devices: 3_000)) {
      #expect(history.launches.allSatisfy { $0.day < 40 || $0.version == 2 }, "device \(history.device)")
    }
  }
}
