import Foundation
import ScenarioFormat

/// How often a device opens the app (docs/rules/SessionsAndActivity.md): its
/// own daily probability, the weekday's factor on it, its launches on an
/// active day and the day it stops for good, as the loop reads them.
struct ActivityTables {
  /// Whether any segment or the population uses one of these; otherwise the
  /// loop draws none of them and a device launches once on a day with its
  /// segment's probability, as before.
  let isUsed: Bool
  private let distributions: [BetaDistribution?]
  /// Per segment, the mean launches of an active day beyond the first.
  private let extraLaunches: [Double]
  private let hazards: [Double]
  /// Per segment, the hazard of a new device's first week; nil: `hazards`'.
  private let firstWeekHazards: [Double?]
  /// The factor of each day of the run's week, by `day % 7`; empty when
  /// every day is alike.
  private let dayFactors: [Double]

  init(population: Population) {
    let activities = population.segments.map(\.activity)
    distributions = activities.map(\.probability)
    extraLaunches = activities.map { $0.launchesPerActiveDay - 1 }
    hazards = activities.map(\.inactivityHazard)
    firstWeekHazards = activities.map(\.firstWeekInactivityHazard)
    if let factors = population.weekdayFactors {
      let first = Weekday.allCases.firstIndex(of: population.firstWeekday)!
      dayFactors = (0..<7).map { factors[(first + $0) % 7] }
    } else {
      dayFactors = []
    }
    isUsed = activities.contains { $0 != .plain } || population.weekdayFactors != nil
  }

  /// A device's own daily activity probability: drawn from its segment's
  /// beta distribution (the ratio of two gamma deviates), or the segment's.
  func probability(segment: Int, base: Double, draws: inout RandomStream) -> Double {
    guard let distribution = distributions[segment] else { return base }
    let x = draws.nextUnitMeanGamma(shape: distribution.alpha) * distribution.alpha
    let y = draws.nextUnitMeanGamma(shape: distribution.beta) * distribution.beta
    return x + y > 0 ? x / (x + y) : distribution.mean
  }

  /// The last day a device that starts on `firstDay` can launch: each later
  /// day it stops for good with its segment's hazard h, so it stays k more
  /// days with probability (1 − h)^k (a geometric count, by inversion). A
  /// device `installed` on `firstDay` stops on each of its first 7 days with
  /// the first week's hazard h₁ instead: it stays k ≤ 7 days with (1 − h₁)^k
  /// and k > 7 with (1 − h₁)⁷(1 − h)^(k − 7), from the same one draw u (past
  /// the first week, u / (1 − h₁)⁷ is again uniform).
  func lastDay(segment: Int, from firstDay: Int, installed: Bool, draws: inout RandomStream) -> Int {
    let hazard = hazards[segment]
    guard installed, let early = firstWeekHazards[segment] else {
      guard hazard > 0 else { return .max }
      let days = (log(draws.nextOpenUnit()) / log1p(-hazard)).rounded(.down)
      return days >= Double(Int32.max) ? .max : firstDay + Int(days)
    }
    let unit = draws.nextOpenUnit(), week = Double(Activity.firstWeek)
    if early > 0 {
      let days = (log(unit) / log1p(-early)).rounded(.down)
      if days < week { return firstDay + Int(days) }
    }
    guard hazard > 0 else { return .max }
    let rest = (log(unit) - week * log1p(-early)) / log1p(-hazard)
    let days = week + max(rest.rounded(.down), 0)
    return days >= Double(Int32.max) ? .max : firstDay + Int(days)
  }

  /// The launch draws of `count` days from `firstDay`, as bits: one Bernoulli
  /// draw a day at the probability times the day's weekday factor (at most 1).
  func launchBits(_ draws: inout RandomStream, probability: Double, firstDay: Int, count: Int) -> UInt64 {
    guard !dayFactors.isEmpty else { return draws.nextBernoulliBits(probability, count: count) }
    var bits: UInt64 = 0
    for index in 0..<count {
      let chance = min(1, probability * dayFactors[(firstDay + index) % 7])
      if draws.nextBernoulli(chance) { bits |= 1 << UInt64(index) }
    }
    return bits
  }

  /// The most launches of one day, which keeps a run's counts within
  /// `ScenarioLimits`' derivation (a Poisson count of the largest mean, 5,
  /// passes 15 on 7 days in 100,000).
  static let mostLaunchesPerDay = 16

  /// A device's launches on an active day: 1 + a Poisson count, at most 16.
  @inline(__always)
  func launches(segment: Int, draws: inout RandomStream) -> Int {
    let extra = extraLaunches[segment]
    return extra > 0 ? min(1 + draws.nextPoisson(mean: extra), Self.mostLaunchesPerDay) : 1
  }
}
