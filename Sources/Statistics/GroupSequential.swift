import _CGSL
import Foundation

/// Group-sequential boundaries by alpha spending (Lan and DeMets, 1983): a
/// test looked at K times, each look allowed the share of alpha its spending
/// function releases by then, so that the chance of crossing any boundary
/// under the null is alpha in all.
///
/// The statistic at look k is Z_k, with information fraction t_k (the share
/// of the final sample seen by then); under the null, S_k = Z_k √t_k is a
/// Brownian motion at t_k. Boundary c_k on |Z_k| solves
/// P(|Z_j| < c_j for j < k, |Z_k| ≥ c_k) = α(t_k) − α(t_{k−1}), found by
/// carrying the density of S over the continuation region from look to look
/// on a grid (Armitage, McPherson and Rowe, 1969) and bisecting.
public enum GroupSequential {
  /// How much of alpha a look at information fraction t may have spent.
  public enum Spending: String, Hashable, Sendable, CaseIterable {
    /// α(t) = 2 − 2Φ(z₁₋α/₂ / √t): almost nothing early, nearly all at the end.
    case obrienFleming = "obrien-fleming"
    /// α(t) = α log(1 + (e − 1)t): about evenly over the looks.
    case pocock

    public func spent(_ alpha: Double, at fraction: Double) -> Double {
      guard fraction > 0 else { return 0 }
      let t = min(fraction, 1)
      switch self {
      case .obrienFleming:
        let z = GSL.value { gsl_cdf_ugaussian_Qinv(alpha / 2) }
        return 2 * GSL.value { gsl_cdf_ugaussian_Q(z / t.squareRoot()) }
      case .pocock:
        return alpha * log(1 + (M_E - 1) * t)
      }
    }
  }

  /// The boundaries on |Z| for looks at increasing information fractions
  /// (the last one is normally 1). A look that adds no information
  /// (a fraction not above the previous one) spends nothing: its boundary
  /// is infinite.
  public static func boundaries(fractions: [Double], alpha: Double, spending: Spending) -> [Double] {
    if alpha < smallestCarriedAlpha { return separateBoundaries(fractions: fractions, alpha: alpha, spending: spending) }
    var boundaries: [Double] = []
    var density: Grid?
    var spent = 0.0, previous = 0.0
    for fraction in fractions {
      guard fraction > previous, fraction > 0 else {
        boundaries.append(.infinity)
        continue
      }
      let target = spending.spent(alpha, at: fraction) - spent
      let boundary: Double
      if let current = density {
        let step = fraction - previous
        boundary = target > 0
          ? solve(target, from: boundaries.last { $0.isFinite } ?? 2) { c in
            current.crossing(at: c * fraction.squareRoot(), step: step, scale: fraction.squareRoot())
          } : .infinity
        density = current.next(boundary: boundary * fraction.squareRoot(), step: step)
      } else {
        boundary = target > 0 ? GSL.value { gsl_cdf_ugaussian_Qinv(target / 2) } : .infinity
        density = Grid.first(boundary: boundary * fraction.squareRoot(), variance: fraction)
      }
      boundaries.append(boundary)
      spent += boundary.isFinite ? target : 0
      previous = fraction
    }
    return boundaries
  }

  /// Below this alpha the density carried over the looks is too far below a
  /// double's range at the boundaries (a crossing of 10⁻³⁰⁰ is a product of
  /// densities and tails that each underflow): `separateBoundaries` then.
  public static let smallestCarriedAlpha = 1e-12

  /// Each look's boundary as a single test of its share of alpha,
  /// 2Q(c_k) = α(t_k) − α(t_{k−1}), for an alpha under
  /// `smallestCarriedAlpha`. Conservative: a look's crossing that an earlier
  /// one preceded counts against its share here, so the looks spend at most
  /// alpha in all (at 10⁻¹² the carried boundaries are up to 0.02 lower on
  /// |Z|, Pocock's last look).
  static func separateBoundaries(fractions: [Double], alpha: Double, spending: Spending) -> [Double] {
    var spent = 0.0, previous = 0.0
    return fractions.map { fraction in
      guard fraction > previous, fraction > 0 else { return .infinity }
      let target = spending.spent(alpha, at: fraction) - spent
      previous = fraction
      guard target > 0 else { return .infinity }
      spent += target
      return GSL.value { gsl_cdf_ugaussian_Qinv(target / 2) }
    }
  }

  /// The two-sided p-value a look must reach to cross boundary c on |Z|:
  /// 2Q(c), so that any test's p-value can be read against it.
  public static func nominalAlpha(boundary: Double) -> Double {
    boundary.isFinite ? 2 * GSL.value { gsl_cdf_ugaussian_Q(boundary) } : 0
  }

  /// The c at which `crossing(c)`, decreasing in c, equals `target`: Newton's
  /// steps from `start`, kept inside a bracket that bisection narrows when a
  /// step would leave it.
  private static func solve(
    _ target: Double, from start: Double, crossing: (Double) -> (value: Double, slope: Double)
  ) -> Double {
    var low = 0.0, high = 40.0, c = start
    for _ in 0..<60 {
      let (value, slope) = crossing(c)
      if value > target { low = c } else { high = c }
      var next = slope < 0 ? c - (value - target) / slope : (low + high) / 2
      if !(next > low && next < high) { next = (low + high) / 2 }
      if abs(next - c) < 1e-10 { return next }
      c = next
    }
    return c
  }

  /// The density of S over the continuation region (−b, b), on a uniform
  /// grid integrated by Simpson's rule.
  private struct Grid {
    var points: [Double]
    var density: [Double]
    var weights: [Double]

    /// The region's points: fine enough that a step of variance `step`
    /// spans several of them.
    init(bound: Double, step: Double, density: (Double) -> Double) {
      let spacing = min(bound / 50, step.squareRoot() / 4)
      var count = Int((2 * bound / spacing).rounded(.up))
      count = min(max(count + (count % 2 == 0 ? 1 : 0), 101), 4001)
      let width = 2 * bound / Double(count - 1)
      points = (0..<count).map { -bound + Double($0) * width }
      self.density = points.map(density)
      weights = (0..<count).map { index in
        (index == 0 || index == count - 1 ? 1 : index % 2 == 1 ? 4 : 2) * width / 3
      }
    }

    static func first(boundary: Double, variance: Double) -> Grid {
      let bound = boundary.isFinite ? boundary : 10 * variance.squareRoot()
      return Grid(bound: bound, step: variance) { s in normalDensity(s, variance: variance) }
    }

    /// P(the next value is beyond ±b and every earlier one was within), with
    /// b = c·`scale`, and its derivative in c.
    func crossing(at bound: Double, step: Double, scale: Double) -> (value: Double, slope: Double) {
      let sd = step.squareRoot()
      var total = 0.0, slope = 0.0
      for index in points.indices {
        let x = points[index], mass = weights[index] * density[index]
        let lower = (-bound - x) / sd, upper = (bound - x) / sd
        total += mass * (GSL.value { gsl_cdf_ugaussian_P(lower) } + GSL.value { gsl_cdf_ugaussian_Q(upper) })
        slope -= mass * (normalDensity(lower, variance: 1) + normalDensity(upper, variance: 1)) * scale / sd
      }
      return (total, slope)
    }

    /// The density at the next look over (−b, b), having stayed within.
    /// Each point gathers from the earlier points within `reach` standard
    /// deviations of the step only: further ones add less than e^(−reach²/2)
    /// of their mass, below a double's precision, and a tiny alpha (10⁻³⁰⁰)
    /// puts the boundary so far out that summing over the whole grid, 4,001
    /// points by 4,001 at every look, took a second a replication.
    func next(boundary: Double, step: Double) -> Grid {
      let bound = boundary.isFinite ? boundary : (points.last ?? 0) + 10 * step.squareRoot()
      let first = points.first ?? 0, width = points.count > 1 ? points[1] - first : 1
      let cut = Self.reach * step.squareRoot()
      return Grid(bound: bound, step: step) { y in
        let low = max(Int(((y - cut - first) / width).rounded(.down)), 0)
        let high = min(Int(((y + cut - first) / width).rounded(.up)), points.count - 1)
        var total = 0.0
        if low <= high {
          for index in low...high {
            total += weights[index] * density[index] * normalDensity(y - points[index], variance: step)
          }
        }
        return total
      }
    }

    /// Standard deviations of a step beyond which a point's mass is left
    /// out: e^(−12²/2) ≈ 5 × 10⁻³², far below the 2⁻⁵² a sum keeps.
    static let reach = 12.0
  }

  private static func normalDensity(_ x: Double, variance: Double) -> Double {
    exp(-x * x / (2 * variance)) / (2 * Double.pi * variance).squareRoot()
  }
}
