import Foundation
import Results
import ScenarioFormat
import Testing

@testable import Simulation

/// docs/rules/AdoptionCurve.md: a version adopted by an observed curve, or by
/// automatic updaters within a day and manual ones after their delay.
@Suite struct AdoptionCurveTests {
  private let curve = [
    AdoptionPoint(day: 1, share: 0.3), AdoptionPoint(day: 3, share: 0.55), AdoptionPoint(day: 7, share: 0.75),
    AdoptionPoint(day: 14, share: 0.85),
  ]

  /// The curve's inverse, linear between the points from (0, 0).
  @Test func aDrawIsTheDelayItsShareIsReachedBy() {
    #expect(curve.delay(forUnit: 0) == 0)
    #expect(curve.delay(forUnit: 0.15) == 0.5)
    #expect(curve.delay(forUnit: 0.3) == 1)
    // 0.425 and 0.8 are not exact in binary: their delays within rounding.
    #expect(abs(curve.delay(forUnit: 0.425)! - 2) < 1e-12)
    #expect(abs(curve.delay(forUnit: 0.8)! - 10.5) < 1e-12)
    #expect(curve.delay(forUnit: 0.85) == nil)
    #expect(curve.delay(forUnit: 0.99) == nil)
  }

  /// The curve read forwards, as the fit reads a curve against the devices
  /// first seen late: 0.15 half a day after the release, 0.425 after 2 days,
  /// the last point's 0.85 after it; with a point on day 0, its share then.
  @Test func aShareIsReadOffTheCurveBetweenItsPoints() {
    #expect(curve.share(after: 0) == 0 && curve.share(after: 0.5) == 0.15 && curve.share(after: 1) == 0.3)
    #expect(abs(curve.share(after: 2) - 0.425) < 1e-12 && curve.share(after: 20) == 0.85)
    #expect([AdoptionPoint(day: 0, share: 0.1), AdoptionPoint(day: 2, share: 0.5)].share(after: 0) == 0.1)
  }

  /// A first point on day 0 is the share that updated on the release day
  /// itself (automatic updaters of a release served at once): a draw below
  /// it updates at the release, and the curve runs on linearly from there.
  @Test func aPointOnDayZeroUpdatesItsShareOnTheReleaseDay() throws {
    let sameDay = [AdoptionPoint(day: 0, share: 0.1), AdoptionPoint(day: 2, share: 0.5)]
    #expect(sameDay.delay(forUnit: 0) == 0)
    #expect(sameDay.delay(forUnit: 0.099) == 0)
    #expect(abs(sameDay.delay(forUnit: 0.3)! - 1) < 1e-12)
    #expect(sameDay.delay(forUnit: 0.5) == nil)
    var plan = try scenario("adoption-curve", devices: 10_000)
    plan.versions[1].adoption.curve = sameDay
    let onTheDay = upgradeMoments(plan, version: 1).filter { $0.moment <= 7 }.count
    #expect(withinBinomialBound(onTheDay, of: plan.devices, p: 0.1), "\(onTheDay)")
  }

  /// Over 20,000 devices of adoption-curve.json the share updated by each
  /// point's day is the point's share within 4.5 binomial standard errors,
  /// and nobody updates after the last point.
  @Test func theSimulatedAdoptionIsTheCurve() throws {
    let plan = try scenario("adoption-curve")
    #expect(plan.versions[1].adoption.curve == curve)
    let moments = upgradeMoments(plan, version: 1).map(\.moment)
    for point in curve + [AdoptionPoint(day: 2, share: 0.425)] {
      let updated = moments.filter { $0 <= 7 + point.day }.count
      #expect(withinBinomialBound(updated, of: moments.count, p: point.share), "day \(point.day): \(updated)")
    }
    #expect(moments.allSatisfy { $0 <= 21 || $0 == .infinity })
  }

  /// The run's 1.0 → 2.0 transition: devices on the curve that launch 2.0,
  /// about 85% of those that launched 1.0 (each launches on 60% of days, so
  /// almost all launch again within the 14 days after).
  @Test func theCurveDecidesWhoTheUpgradeReaches() async throws {
    let plan = try scenario("adoption-curve", devices: 10_000)
    let document = await run(plan)
    let transition = try #require(document.experiment("Onboarding")?.transition("1.0", "2.0"))
    #expect(withinBinomialBound(transition.devices, of: plan.devices, p: 0.85, sigmas: 5), "\(transition.devices)")
  }

  /// Automatic updaters take a version within a day of its release; manual
  /// ones after their exponential delay: by a day after the release,
  /// a + (1 − a)(1 − e^(−1/m)) of the devices, here 0.4 + 0.6(1 − e^(−1/5)).
  @Test func automaticUpdatersTakeAVersionWithinADay() throws {
    var plan = try scenario("adoption-curve", devices: 10_000)
    plan.versions[1].adoption = Adoption(meanDelayDays: 5, neverUpgradeShare: 0)
    plan.versions[1].adoption.automaticShare = 0.4
    let withinADay = upgradeMoments(plan, version: 1).filter { $0.moment < 8 }.count
    #expect(withinBinomialBound(withinADay, of: plan.devices, p: 0.4 + 0.6 * (1 - exp(-1.0 / 5))), "\(withinADay)")
  }
}
