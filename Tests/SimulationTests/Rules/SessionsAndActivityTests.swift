import Foundation
import Results
import ScenarioFormat
import Testing

@testable import Simulation

/// docs/rules/SessionsAndActivity.md on sessions-and-activity.json: each
/// device's own daily activity from a beta distribution, weekday factors,
/// several launches on an active day, and a hazard of stopping for good.
@Suite struct SessionsAndActivityTests {
  private let plan: Scenario
  private let tables: ActivityTables

  init() throws {
    plan = try scenario("sessions-and-activity")
    tables = ActivityTables(population: plan.population)
  }

  /// A stream of its own for each of `count` draws.
  private func draws<T>(_ count: Int, _ draw: (inout RandomStream) -> T) -> [T] {
    (0..<count).map { device in
      var stream = DeviceRandom(seed: 99, replication: 0, device: device).stream(.activity)
      return draw(&stream)
    }
  }

  /// Over 20,000 devices of each segment, the probabilities' mean is the
  /// distribution's within 4.5 standard errors, and their variance m(1 − m)/(k + 1)
  /// within 10%: 0.25 × 0.75 / 2.5 = 0.075 for casual, 0.7 × 0.3 / 5 = 0.042 for engaged.
  @Test func aDevicesActivityIsDrawnFromItsSegmentsBeta() throws {
    for (segment, expected) in [(0, (0.25, 0.075)), (1, (0.7, 0.042))] {
      let values = draws(20_000) { tables.probability(segment: segment, base: 0, draws: &$0) }
      let mean = values.reduce(0, +) / Double(values.count)
      let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
      #expect(abs(mean - expected.0) <= 4.5 * (expected.1 / Double(values.count)).squareRoot(), "segment \(segment): \(mean)")
      #expect(abs(variance / expected.1 - 1) < 0.1, "segment \(segment): \(variance)")
      #expect(values.allSatisfy { (0...1).contains($0) })
    }
  }

  /// The last day a device can launch: it stays k more days with probability
  /// (1 − h)^k, h = 0.03 for casual devices, within 4.5 binomial standard errors.
  @Test func devicesStopForGoodByTheHazard() {
    let lastDays = draws(20_000) { tables.lastDay(segment: 0, from: 5, installed: true, draws: &$0) }
    #expect(lastDays.allSatisfy { $0 >= 5 })
    for k in [1, 7, 30] {
      let staying = lastDays.filter { $0 >= 5 + k }.count
      #expect(withinBinomialBound(staying, of: lastDays.count, p: pow(0.97, Double(k))), "k \(k): \(staying)")
    }
  }

  /// Engaged devices (h = 0.005) have a first week's hazard of 0.15: a
  /// device installed in the run stays k days with 0.85^k up to 7 and
  /// 0.85⁷ × 0.995^(k − 7) after; one installed before the run, with
  /// 0.995^k throughout. Within 4.5 binomial standard errors over 20,000 each.
  @Test func newDevicesLeaveFasterInTheirFirstWeek() {
    let new = draws(20_000) { tables.lastDay(segment: 1, from: 3, installed: true, draws: &$0) }
    let old = draws(20_000) { tables.lastDay(segment: 1, from: 3, installed: false, draws: &$0) }
    for k in [1, 3, 7, 8, 30] {
      let early = pow(0.85, Double(min(k, 7))) * pow(0.995, Double(max(k - 7, 0)))
      let staying = new.filter { $0 >= 3 + k }.count, stayingOld = old.filter { $0 >= 3 + k }.count
      #expect(withinBinomialBound(staying, of: new.count, p: early), "new, k \(k): \(staying)")
      #expect(withinBinomialBound(stayingOld, of: old.count, p: pow(0.995, Double(k))), "old, k \(k): \(stayingOld)")
    }
  }

  /// An active day's launches are 1 + Poisson(m − 1): engaged devices (m = 3)
  /// launch once on e^(−2) = 13.5% of their active days, and 3 times on average.
  @Test func anActiveDayHasSeveralLaunches() {
    let launches = draws(20_000) { tables.launches(segment: 1, draws: &$0) }
    #expect(launches.allSatisfy { $0 >= 1 })
    #expect(withinBinomialBound(launches.filter { $0 == 1 }.count, of: launches.count, p: exp(-2)))
    let mean = Double(launches.reduce(0, +)) / Double(launches.count)
    #expect(abs(mean - 3) <= 4.5 * (2.0 / Double(launches.count)).squareRoot(), "\(mean)")
  }

  /// Day 0 is a Monday: a device of probability 0.4 launches on each weekday
  /// with 0.4 times the day's factor (1.25 on Mondays: 0.5; 0.75 on
  /// Saturdays: 0.3), within 4.5 binomial standard errors over 8,000 weeks.
  @Test func weekdaysScaleTheDailyProbability() throws {
    let factors = try #require(plan.population.weekdayFactors)
    let weeks = draws(8_000) { tables.launchBits(&$0, probability: 0.4, firstDay: 0, count: 7) }
    for day in 0..<7 {
      let launched = weeks.filter { $0 & (1 << UInt64(day)) != 0 }.count
      #expect(withinBinomialBound(launched, of: weeks.count, p: 0.4 * factors[day]), "day \(day): \(launched)")
    }
    // A word starting on day 5 starts on a Saturday.
    let shifted = draws(8_000) { tables.launchBits(&$0, probability: 0.4, firstDay: 5, count: 1) }
    #expect(withinBinomialBound(shifted.filter { $0 == 1 }.count, of: shifted.count, p: 0.4 * 0.75))
  }

  /// In the run, a device's launches on a day are its sessions: the run's
  /// launch count is every device's, and engaged devices average about 3 on
  /// an active day (the Poisson's 3, within 5%).
  @Test func theRunCountsEverySession() async throws {
    let small = try scenario("sessions-and-activity", devices: 2_000)
    let all = histories(small)
    let document = await run(small)
    #expect(document.launches == all.reduce(0) { $0 + $1.launches.count })
    let engaged = all.filter { $0.segment == 1 }
    let activeDays = engaged.reduce(0) { $0 + Set($1.launches.map(\.day)).count }
    let launches = engaged.reduce(0) { $0 + $1.launches.count }
    #expect(abs(Double(launches) / Double(activeDays) - 3) < 0.15, "\(launches) over \(activeDays) days")
  }

  /// A plan without activity draws nothing new: the tables say unused.
  @Test func aPlainPopulationUsesNone() throws {
    #expect(tables.isUsed)
    #expect(!ActivityTables(population: try scenario("upgrade").population).isUsed)
  }
}
