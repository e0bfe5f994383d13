import AnalyticsTable
import Foundation
import ScenarioFormat
import Testing
import WorldFit

/// `bench fit` on an export the bench made from a known world
/// (scenarios/world-round-trip.json, simulated at 6,000 devices and written
/// in Amplitude's shape): the fitted parameters fall within stated
/// tolerances of the known ones, and the fitted world, simulated and
/// exported the same way, reproduces the export's daily figures within the
/// bounds issue 63 sets for exports the project did not make.
@Suite(.serialized) struct WorldFitTests {
  /// The known world's export, its fit, and the fitted world's export.
  private struct RoundTrip {
    let truth: Scenario
    let world: Scenario
    let observed: ExportActivity
    let refitted: ExportActivity
  }

  private static let devices = 6_000

  private func roundTrip() throws -> RoundTrip {
    let folder = try temporaryFolder()
    let export = folder.appendingPathComponent("export.jsonl").path
    let worldPath = folder.appendingPathComponent("world.json").path
    let again = folder.appendingPathComponent("again.jsonl").path
    for arguments in [
      [committedScenario("world-round-trip"), "--devices", "\(Self.devices)", "--replications", "1", "--events", export],
      ["fit", export, "--preset", "amplitude", "--out", worldPath],
      [worldPath, "--replications", "1", "--events", again],
    ] {
      let result = try BenchProcess.run(
        arguments + (arguments[0] == "fit" ? [] : ["--events-shape", "amplitude", "--out", folder.appendingPathComponent("runs").path])
          + ["--quiet"])
      #expect(result.status == 0, "\(arguments[0]): \(result.standardError)")
    }
    let mapping = try #require(ExportPreset.amplitude.mapping)
    let time = EventTime(format: .iso8601)
    return RoundTrip(
      truth: try Scenario.load(path: committedScenario("world-round-trip")).scenario,
      world: try Scenario.load(path: worldPath).scenario,
      observed: try ExportActivity(path: export, mapping: mapping, time: time, sessionEvent: nil, dayLimit: 3_660),
      refitted: try ExportActivity(path: again, mapping: mapping, time: time, sessionEvent: nil, dayLimit: 3_660))
  }

  @Test func theFitFindsTheKnownWorldAndReproducesItsExport() throws {
    let trip = try roundTrip()
    let truth = trip.truth.population, fitted = trip.world.population
    // The segments: one per platform, iOS first (more devices).
    #expect(fitted.segments.map { $0.attributes["platform"] } == ["iOS", "Android"])
    for (known, found) in zip(truth.segments, fitted.segments) {
      let activity = try #require(found.activity.probability), expected = try #require(known.activity.probability)
      #expect(abs(found.share - known.share) <= 0.03, "\(found.name) share \(found.share)")
      #expect(abs(activity.mean - expected.mean) <= 0.03, "\(found.name) mean \(activity.mean)")
      #expect(activity.concentration / expected.concentration < 2 && expected.concentration / activity.concentration < 2,
        "\(found.name) concentration \(activity.concentration)")
      #expect(abs(found.activity.inactivityHazard - known.activity.inactivityHazard) <= 0.005,
        "\(found.name) hazard \(found.activity.inactivityHazard)")
      // iOS has no first week of its own (its hazard's), Android's is 0.08.
      let firstWeek = found.activity.firstWeekInactivityHazard ?? found.activity.inactivityHazard
      let knownFirstWeek = known.activity.firstWeekInactivityHazard ?? known.activity.inactivityHazard
      #expect(abs(firstWeek - knownFirstWeek) <= 0.02, "\(found.name) first week's hazard \(firstWeek)")
      #expect(abs(found.activity.launchesPerActiveDay / known.activity.launchesPerActiveDay - 1) <= 0.05,
        "\(found.name) sessions \(found.activity.launchesPerActiveDay)")
    }
    // The installs, as shares of the devices (the schedule's counts are a shape).
    let knownInstalls = try #require(truth.installs), foundInstalls = try #require(fitted.installs)
    let knownTotal = knownInstalls.newDevices(days: 56).reduce(knownInstalls.existing, +)
    let foundTotal = foundInstalls.newDevices(days: 56).reduce(foundInstalls.existing, +)
    #expect(abs(foundInstalls.existing / foundTotal - knownInstalls.existing / knownTotal) <= 0.05,
      "existing \(foundInstalls.existing) of \(foundTotal)")
    #expect(abs(foundInstalls.daily / foundTotal / (knownInstalls.daily / knownTotal) - 1) <= 0.15, "daily \(foundInstalls.daily)")
    let campaign = try #require(foundInstalls.campaigns.first { $0.day >= 29 && $0.day <= 31 })
    #expect(abs(campaign.days - 4) <= 1 && abs(campaign.daily / foundTotal / (6_000 / knownTotal) - 1) <= 0.2, "\(foundInstalls.campaigns)")
    #expect(foundInstalls.campaigns.count == 1, "\(foundInstalls.campaigns)")
    // The weekdays and the releases.
    let factors = try #require(fitted.weekdayFactors)
    #expect(zip(factors, truth.weekdayFactors!).allSatisfy { abs($0 - $1) <= 0.08 }, "\(factors)")
    #expect(trip.world.versions.map(\.releaseDay) == [0, 14, 35])
    let curve = try #require(trip.world.versions[2].adoption.curve)
    for (day, share) in [(1.0, 0.3), (4.0, 0.6), (10.0, 0.8)] {
      let found = try #require(curve.first { $0.day == day })
      #expect(abs(found.share - share) <= 0.08, "3.0 by day \(day): \(found.share)")
    }
    // Each point says where its share lies (a 95% Wilson interval over the devices read, about ±2 points
    // for some thousand devices), and each end is a curve that never falls: what --world-ends runs at.
    for version in trip.world.versions.dropFirst() {
      let points = try #require(version.adoption.curve)
      for (index, point) in points.enumerated() {
        let interval = try #require(point.interval, "\(version.version) day \(point.day)")
        #expect(interval.lowerBound <= point.share && point.share <= interval.upperBound)
        #expect(point.share == 0 || point.share == 1 || (interval.upperBound - interval.lowerBound > 0.005
          && interval.upperBound - interval.lowerBound < 0.1), "\(version.version) day \(point.day): \(interval)")
        if index > 0, let before = points[index - 1].interval {
          #expect(interval.lowerBound >= before.lowerBound && interval.upperBound >= before.upperBound)
        }
      }
    }

    // The fitted world's export against the known world's, by issue 63's bounds.
    let observed = Figures(trip.observed), again = Figures(trip.refitted)
    #expect(abs(again.meanActive / observed.meanActive - 1) <= 0.10, "active \(again.meanActive) against \(observed.meanActive)")
    #expect(abs(again.meanNew / observed.meanNew - 1) <= 0.10, "new \(again.meanNew) against \(observed.meanNew)")
    #expect(abs(again.sessionsPerActiveDay / observed.sessionsPerActiveDay - 1) <= 0.05)
    #expect(abs(again.daySevenRetention - observed.daySevenRetention) <= 0.04,
      "day-7 retention \(again.daySevenRetention) against \(observed.daySevenRetention)")
    for day in stride(from: 0, to: 56, by: 1) {
      for version in ["1.0", "2.0", "3.0"] {
        let difference = abs(again.share(of: version, on: day) - observed.share(of: version, on: day))
        #expect(difference <= 0.06, "\(version) on day \(day): \(difference)")
      }
    }
  }
}

/// The daily figures issue 63 holds a fitted world to, from an export.
private struct Figures {
  let meanActive: Double
  let meanNew: Double
  let sessionsPerActiveDay: Double
  /// Of the devices first seen on days 1 to days − 8, the share active 7 days later.
  let daySevenRetention: Double
  private let shares: [[String: Double]]

  init(_ activity: ExportActivity) {
    let days = activity.days
    var active = [Double](repeating: 0, count: days), new = active
    var counts = [[String: Double]](repeating: [:], count: days)
    var sessions = 0, activeDays = 0, cohort = 0, retained = 0
    for device in activity.devices {
      let first = device.days[0]
      new[first] += 1
      for (index, day) in device.days.enumerated() {
        active[day] += 1
        if device.versions[index] >= 0 { counts[day][activity.versions[device.versions[index]], default: 0] += 1 }
      }
      sessions += device.sessions.reduce(0, +)
      activeDays += device.days.count
      if first >= 1 && first + 7 < days {
        cohort += 1
        if device.days.contains(first + 7) { retained += 1 }
      }
    }
    meanActive = active.reduce(0, +) / Double(days)
    meanNew = new.dropFirst().reduce(0, +) / Double(days - 1)
    sessionsPerActiveDay = Double(sessions) / Double(activeDays)
    daySevenRetention = Double(retained) / Double(max(cohort, 1))
    shares = zip(counts, active).map { day, total in day.mapValues { $0 / max(total, 1) } }
  }

  func share(of version: String, on day: Int) -> Double { shares[day][version] ?? 0 }
}
