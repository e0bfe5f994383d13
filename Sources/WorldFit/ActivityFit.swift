import Foundation
import Statistics

/// A segment's activity fitted to what its export shows (docs/world.md, "How
/// the fit works"): each device's daily activity probability p from a beta
/// distribution of mean `mean` and concentration `concentration`, a daily
/// hazard h of stopping for good, the devices installed before day 0, and
/// the new devices of each day.
///
/// The model's expectations are averages over 256 equal-mass points of the
/// beta distribution, where a device of probability p is active on day d with
/// q_d = min(1, p w(d)), w the weekday's factor, as the simulation draws it.
/// With S(d) = (1 − h)^d, A(d) = E[q_d], G(d) = E[q_d Π_{j<d} (1 − q_j)], E
/// devices installed before day 0 and n(d) new on day d (active that day):
/// - first seen on day d: E S(d) G(d) + n(d), so n(d) follows from E;
/// - active on day d: n(d) + A(d) [E S(d) + Σ_{f<d} n(f) S(d − f)], which is
///   linear in E once n is put in;
/// - of day 0's devices, active on day t: S(t) (E E[q_0 q_t] + n(0) A(t)).
/// For given (m, k, h) the best E is a weighted least-squares solution; the
/// three are searched by Nelder–Mead to minimise the chi-square distance of
/// the active devices and day 0's returns from their expectations.
public struct ActivityFit: Sendable {
  public let mean: Double
  public let concentration: Double
  public let hazard: Double
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
    func parameters(_ x: [Double]) -> (Double, Double, Double) {
      (1 / (1 + exp(-x[0])), exp(x[1]), 1 / (1 + exp(-x[2])))
    }
    let search = NelderMead()
    let best = search.minimize(
      { x in
        let (m, k, h) = parameters(x)
        return Self.evaluate(segment, weekday: weekday, mean: m, concentration: k, hazard: h, horizon: horizon)?.objective
          ?? .infinity
      }, from: [log(startMean / (1 - startMean)), log(2), log(0.01 / 0.99)])
    let (m, k, h) = parameters(best)
    let model = Self.evaluate(segment, weekday: weekday, mean: m, concentration: k, hazard: h, horizon: horizon)
    mean = m
    concentration = k
    hazard = h
    existing = model?.existing ?? 0
    newDevices = model?.newDevices.map { max($0, 0) } ?? segment.firstSeen
    expectedActive = model?.active ?? segment.active
    expectedReturns = model?.returns ?? []
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
    _ segment: ObservedSegment, weekday w: [Double], mean m: Double, concentration k: Double, hazard h: Double, horizon: Int
  ) -> Evaluation? {
    let alpha = m * k, beta = (1 - m) * k
    guard alpha >= 0.01, beta >= 0.01, k <= 10_000, (0..<0.5).contains(h) else { return nil }
    var probabilities: [Double] = []
    for index in 0..<points {
      guard let p = try? Distribution.betaQuantile((Double(index) + 0.5) / Double(points), a: alpha, b: beta) else { return nil }
      probabilities.append(p)
    }
    let days = segment.active.count
    var survival = [Double](repeating: 1, count: days), g = [Double](repeating: 0, count: days), activeShare = g
    var unseen = [Double](repeating: 1, count: points)
    for day in 0..<days {
      survival[day] = pow(1 - h, Double(day))
      var first = 0.0, active = 0.0
      for index in 0..<points {
        let q = min(1, probabilities[index] * w[day])
        active += q
        first += q * unseen[index]
        unseen[index] *= 1 - q
      }
      g[day] = first / Double(points)
      activeShare[day] = active / Double(points)
    }
    // Active on day d = a(d) + E b(d).
    var a = [Double](repeating: 0, count: days), b = a
    var carried = 0.0, seenBefore = 0.0
    for day in 0..<days {
      if day > 0 {
        carried = (1 - h) * (carried + segment.firstSeen[day - 1])
        seenBefore += g[day - 1]
      }
      a[day] = segment.firstSeen[day] + activeShare[day] * carried
      b[day] = survival[day] * (-g[day] + activeShare[day] * (1 - seenBefore))
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
        let share = min(survival[day] * (existing * both + newOnFirstDay * activeShare[day]) / cohort, 1)
        returns.append(share)
        let expected = share * cohort, difference = segment.cohortActive[day] - expected
        objective += difference * difference / max(expected * (1 - share), 1)
      }
    }
    guard objective.isFinite else { return nil }
    return Evaluation(existing: existing, newDevices: newDevices, active: active, returns: returns, objective: objective)
  }
}
