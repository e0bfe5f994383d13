import Foundation
import ScenarioFormat
import Statistics

/// A segment's activity fitted to what its export shows (docs/world.md, "How
/// the fit works"): each device's daily activity probability p from a beta
/// distribution of mean `mean` and concentration `concentration`, a daily
/// hazard h of stopping for good, a hazard h₁ on the first 7 days after a
/// device installs during the export, the devices installed before day 0,
/// and the new devices of each day.
///
/// The model's expectations are averages over 256 equal-mass points of the
/// beta distribution, where a device of probability p is active on day d with
/// q_d = min(1, p w(d)), w the weekday's factor, as the simulation draws it.
/// With S(d) = (1 − h)^d, a new device's survival N(a) = (1 − h₁)^min(a, 7)
/// (1 − h)^max(a − 7, 0), A(d) = E[q_d], G(d) = E[q_d Π_{j<d} (1 − q_j)], E
/// devices installed before day 0 and n(d) new on day d (active that day):
/// - first seen on day d: E S(d) G(d) + n(d), so n(d) follows from E;
/// - active on day d: n(d) + A(d) [E S(d) + Σ_{f<d} n(f) N(d − f)], which is
///   linear in E once n is put in;
/// - of day 0's devices, active on day t: E S(t) E[q_0 q_t] + n(0) N(t) A(t);
/// - of the devices first seen on days 1 to 60, active a days later (1 to
///   14): Σ_f n(f) N(a) A(f + a) + E S(f + a) E[q_{f+a} q_f Π_{j<f} (1 − q_j)].
/// For given (m, k, h, h₁) the best E is a weighted least-squares solution;
/// the four are searched by Nelder–Mead to minimise the chi-square distance
/// of the active devices, day 0's returns and the later devices' returns
/// from their expectations. Without later devices to follow (an export under
/// 16 days), h₁ is h.
public struct ActivityFit: Sendable {
  public let mean: Double
  public let concentration: Double
  public let hazard: Double
  /// The hazard of a new device's first 7 days.
  public let firstWeekHazard: Double
  /// Devices installed before day 0.
  public let existing: Double
  /// Per day, the new devices (at least 0).
  public let newDevices: [Double]
  /// Per day, the active devices the fitted model expects.
  public let expectedActive: [Double]
  /// Per day t ≥ 1, the share of day 0's devices the model expects back.
  public let expectedReturns: [Double]

  /// Fits `segment` under the weekday factors `weekday`, one per day of the export.
  public init(_ segment: ObservedSegment, weekday: [Double]) {
    let days = segment.active.count
    let horizon = min(days, 61)
    let cohort = max(segment.firstSeen.first ?? 0, 1)
    let early = (1..<min(8, days)).map { segment.cohortActive[$0] / cohort / weekday[$0] }
    let startMean = min(max(early.isEmpty ? 0.3 : early.reduce(0, +) / Double(early.count), 0.02), 0.95)
    let followsNewDevices = segment.lastNewCohortDay >= 1
    func parameters(_ x: [Double]) -> Parameters {
      let hazard = 1 / (1 + exp(-x[2]))
      return Parameters(
        mean: 1 / (1 + exp(-x[0])), concentration: exp(x[1]), hazard: hazard,
        firstWeekHazard: followsNewDevices ? 1 / (1 + exp(-x[3])) : hazard)
    }
    let search = NelderMead()
    let start = [log(startMean / (1 - startMean)), log(2), log(0.01 / 0.99)]
    let best = search.minimize(
      { x in
        Self.evaluate(segment, weekday: weekday, parameters(x), horizon: horizon)?.objective ?? .infinity
      }, from: followsNewDevices ? start + [log(0.02 / 0.98)] : start)
    let fitted = parameters(best)
    let model = Self.evaluate(segment, weekday: weekday, fitted, horizon: horizon)
    mean = fitted.mean
    concentration = fitted.concentration
    hazard = fitted.hazard
    firstWeekHazard = fitted.firstWeekHazard
    existing = model?.existing ?? 0
    newDevices = model?.newDevices.map { max($0, 0) } ?? segment.firstSeen
    expectedActive = model?.active ?? segment.active
    expectedReturns = model?.returns ?? []
  }

  private struct Parameters {
    var mean: Double
    var concentration: Double
    var hazard: Double
    var firstWeekHazard: Double
  }

  private struct Evaluation {
    var existing: Double
    var newDevices: [Double]
    var active: [Double]
    var returns: [Double]
    var objective: Double
  }

  /// The quadrature's points: equal masses of the beta distribution.
  static let points = 256

  private static func evaluate(
    _ segment: ObservedSegment, weekday w: [Double], _ parameters: Parameters, horizon: Int
  ) -> Evaluation? {
    let m = parameters.mean, k = parameters.concentration, h = parameters.hazard, early = parameters.firstWeekHazard
    let alpha = m * k, beta = (1 - m) * k
    guard alpha >= 0.01, beta >= 0.01, k <= 10_000, (0..<0.5).contains(h), (0..<0.9).contains(early) else { return nil }
    var probabilities: [Double] = []
    for index in 0..<points {
      guard let p = try? Distribution.betaQuantile((Double(index) + 0.5) / Double(points), a: alpha, b: beta) else { return nil }
      probabilities.append(p)
    }
    let days = segment.active.count
    let week = Activity.firstWeek
    /// A new device's survival a days after its install.
    func newSurvival(_ age: Int) -> Double {
      pow(1 - early, Double(min(age, week))) * pow(1 - h, Double(max(age - week, 0)))
    }
    let lastCohort = segment.lastNewCohortDay, ages = ObservedSegment.newCohortAges
    var survival = [Double](repeating: 1, count: days), g = [Double](repeating: 0, count: days), activeShare = g
    var unseen = [Double](repeating: 1, count: points)
    // Per point, q on each day a later device is followed to, and the chance
    // it is first seen on each of the followed first days.
    let followed = lastCohort >= 1 ? lastCohort + ages + 1 : 0
    var q = [Double](repeating: 0, count: points * followed), firstOn = q
    for day in 0..<days {
      survival[day] = pow(1 - h, Double(day))
      var first = 0.0, active = 0.0
      for index in 0..<points {
        let chance = min(1, probabilities[index] * w[day])
        active += chance
        first += chance * unseen[index]
        if day < followed {
          q[index * followed + day] = chance
          firstOn[index * followed + day] = chance * unseen[index]
        }
        unseen[index] *= 1 - chance
      }
      g[day] = first / Double(points)
      activeShare[day] = active / Double(points)
    }
    // Σ_{f<d} x(f) N(d − f) for x the devices first seen and S(f) G(f): the
    // last 7 days term by term, the older ones carried geometrically.
    func carried(_ x: (Int) -> Double) -> [Double] {
      var sums = [Double](repeating: 0, count: days), tail = 0.0
      for day in 0..<days {
        if day >= week + 1 { tail = (1 - h) * (tail + x(day - week - 1)) }
        var sum = pow(1 - early, Double(week)) * tail
        for age in 1...min(week, max(day, 1)) where day - age >= 0 { sum += x(day - age) * pow(1 - early, Double(age)) }
        sums[day] = sum
      }
      return sums
    }
    let seenCarried = carried { segment.firstSeen[$0] }, existingCarried = carried { survival[$0] * g[$0] }
    // Active on day d = a(d) + E b(d).
    var a = [Double](repeating: 0, count: days), b = a
    for day in 0..<days {
      a[day] = segment.firstSeen[day] + activeShare[day] * seenCarried[day]
      b[day] = survival[day] * (activeShare[day] - g[day]) - activeShare[day] * existingCarried[day]
    }
    var numerator = 0.0, denominator = 0.0
    for day in 0..<days {
      let weight = 1 / max(segment.active[day], 1)
      numerator += b[day] * (segment.active[day] - a[day]) * weight
      denominator += b[day] * b[day] * weight
    }
    let existing = max(denominator > 0 ? numerator / denominator : 0, 0)
    let newDevices = (0..<days).map { segment.firstSeen[$0] - existing * survival[$0] * g[$0] }
    let active = (0..<days).map { a[$0] + existing * b[$0] }
    var objective = 0.0
    for day in 0..<days {
      let difference = segment.active[day] - active[day]
      objective += difference * difference / max(segment.active[day], 1)
      if newDevices[day] < 0 { objective += 10 * newDevices[day] * newDevices[day] / max(segment.firstSeen[day], 1) }
    }
    let cohort = segment.firstSeen.first ?? 0
    var returns: [Double] = []
    if cohort > 0 {
      let newOnFirstDay = max(cohort - existing * g[0], 0)
      for day in 1..<horizon {
        var both = 0.0
        for p in probabilities { both += min(1, p * w[0]) * min(1, p * w[day]) }
        both /= Double(points)
        let share = min((survival[day] * existing * both + newSurvival(day) * newOnFirstDay * activeShare[day]) / cohort, 1)
        returns.append(share)
        let expected = share * cohort, difference = segment.cohortActive[day] - expected
        objective += difference * difference / max(expected * (1 - share), 1)
      }
    }
    if lastCohort >= 1 {
      let followedDevices = segment.firstSeen[1...lastCohort].reduce(0, +)
      for age in 1...ages {
        var expected = 0.0
        for first in 1...lastCohort {
          var older = 0.0
          for index in 0..<points { older += firstOn[index * followed + first] * q[index * followed + first + age] }
          expected += max(newDevices[first], 0) * newSurvival(age) * activeShare[first + age]
            + existing * survival[first + age] * older / Double(points)
        }
        let share = min(expected / max(followedDevices, 1), 1)
        let difference = segment.newCohortActive[age - 1] - expected
        objective += difference * difference / max(expected * (1 - share), 1)
      }
    }
    guard objective.isFinite else { return nil }
    return Evaluation(existing: existing, newDevices: newDevices, active: active, returns: returns, objective: objective)
  }
}
