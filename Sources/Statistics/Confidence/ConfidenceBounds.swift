import Foundation
import _CGSL

/// Spotify Confidence's group-sequential bounds, as spotify-confidence 4.1.0
/// computes them (`sequential_bound_solver.bounds`, its port of the R
/// package ldbounds' `landem`): Lan and DeMets' alpha spending with the power
/// family α·t² over the information ratios t of the looks, the density of
/// the process carried from look to look by the trapezoid rule on a grid of
/// step 0.05 (at most 1,000 intervals), each bound found by a decimal search
/// to within 1e-7 of the alpha its look may spend, and bounds truncated at
/// z = 8.
///
/// The bench's own `GroupSequential` solves the same problem its own way;
/// this one reproduces Confidence's figures, where its grid and search round
/// included, so that a team sees the page Confidence would show. Like
/// Confidence's computation state, it is built a look at a time: a page read
/// every day extends yesterday's bounds instead of solving them again.
public struct ConfidenceBounds: Sendable {
  /// The exponent of the spending function α·t^ρ (Confidence's `rho=2`).
  public static let exponent = 2.0
  /// Bounds above this z are truncated to it (`ztrun=8`).
  public static let truncation = 8.0
  /// The grid's intervals are capped at this many (`max_nints=1000`).
  public static let maximumIntervals = 1000.0
  static let step = 0.05
  static let tolerance = 1e-7
  /// Looks closer than this in information repeat the bound before them.
  static let smallestGain = 1e-5

  /// The alpha each side may spend in all.
  public let alphaPerSide: Double
  private var looks: [Look] = []
  /// The density of the process below the last look's bounds, on that look's grid.
  private var density: [Double] = []
  /// The last look's information ratio as given: Confidence's spending and steps come from the given
  /// ratios, while a look that adds too little repeats the row before it.
  private var lastRatio = 0.0

  /// Bounds that spend `alpha` over `sides` sides.
  public init(alpha: Double, sides: Int) throws(ConfidenceBoundsError) {
    guard sides == 1 || sides == 2 else { throw .sides(sides) }
    guard alpha > 0, alpha < 1 else { throw .alpha(alpha) }
    alphaPerSide = alpha / Double(sides)
  }

  /// The bounds on z so far, one per look.
  public var bounds: [Double] { looks.map(\.zb) }

  /// The bound on z of the next look, at information ratio `ratio` (not below the last one's), as
  /// Confidence computes it for the looks so far; it refuses a last bound below the fixed-horizon one.
  public mutating func look(at ratio: Double) throws(ConfidenceBoundsError) -> Double {
    try append(ratio)
    let bound = looks[looks.count - 1].zb
    guard GSL.value({ gsl_cdf_ugaussian_Pinv(1 - alphaPerSide) }) <= bound else { throw .lessConservativeThanFixedHorizon }
    return bound
  }

  /// The bounds on z for looks at `informationRatios` (increasing, none 0), spending `alpha` over
  /// `sides` sides.
  public static func bounds(informationRatios t: [Double], alpha: Double, sides: Int) throws(ConfidenceBoundsError) -> [Double] {
    var solver = try ConfidenceBounds(alpha: alpha, sides: sides)
    guard !t.isEmpty else { throw .zeroRatio }
    for ratio in t.dropLast() { try solver.append(ratio) }
    _ = try solver.look(at: t[t.count - 1])
    return solver.bounds
  }

  /// One look's state in `landem`: its bounds on z and on the process (y = z·√t), the alpha spent by
  /// then and at it, and its grid.
  struct Look {
    var zb = Double.nan, yb = Double.nan, ya = Double.nan
    var spent: Double
    var spending: Double
    var stdv: Double
    var sdproc: Double
    var intervals = Double.nan
    var ratio: Double
  }

  /// Adds a look at `ratio` without the fixed-horizon check, which Confidence makes of the last look only.
  mutating func append(_ ratio: Double) throws(ConfidenceBoundsError) {
    guard ratio > 0, ratio.isFinite else { throw .zeroRatio }
    guard ratio >= lastRatio else { throw .notIncreasing }
    defer { lastRatio = ratio }
    let lower = -Self.truncation, step = Self.step
    guard let previous = looks.last else {
      var first = Look(
        spent: alphaPerSide * pow(ratio, Self.exponent), spending: alphaPerSide * pow(ratio, Self.exponent),
        stdv: ratio.squareRoot(), sdproc: ratio.squareRoot(), ratio: ratio)
      // Confidence cannot start where the first look spends the whole alpha (its grid has no bound).
      guard first.spending < 1 else { throw .wholeAlphaAtFirstLook }
      first.zb = GSL.value { gsl_cdf_ugaussian_Pinv(1 - first.spending) }
      if first.zb > Self.truncation {
        first.zb = Self.truncation
        first.spending = 1 - GSL.value { gsl_cdf_ugaussian_P(first.zb) }
        first.spent = first.spending
      }
      first.yb = first.zb * first.stdv
      first.ya = lower * first.stdv
      first.intervals = ((first.yb - first.ya) / (step * first.stdv)).rounded(.up)
      looks = [first]
      density = Self.linspace(first.ya, first.yb, Int(first.intervals) + 1).map { Self.normalDensity($0 / first.stdv, scale: first.stdv) }
      return
    }
    let spent = alphaPerSide * pow(ratio, Self.exponent)
    var row = Look(
      spent: spent, spending: spent - alphaPerSide * pow(lastRatio, Self.exponent), stdv: (ratio - lastRatio).squareRoot(),
      sdproc: ratio.squareRoot(), ratio: ratio)
    if row.ratio - previous.ratio <= Self.smallestGain {
      looks.append(previous)
      return
    }
    if row.spending != 1 { row.spending = row.spent - previous.spent }
    row.spending = min(max(row.spending, 0), 1)
    let previousIntervals = Int(previous.intervals)
    if row.spending < Self.tolerance {
      row.zb = -lower
      row.yb = row.zb * row.sdproc
    } else if row.spending == 1 {
      row.zb = 0
      row.yb = 0
    } else {
      row.yb = try Self.search(density, intervals: previousIntervals, target: row.spending, stdv: row.stdv, ya: previous.ya, yb: previous.yb)
      row.zb = row.yb / row.sdproc
      if row.zb > Self.truncation {
        row.zb = Self.truncation
        row.spending = Self.crossing(
          row.zb * row.sdproc, density, intervals: previousIntervals, ya: previous.ya, yb: previous.yb, stdv: row.stdv)
        row.spent = row.spending + previous.spent
      }
      row.yb = row.zb * row.sdproc
    }
    row.ya = lower * row.sdproc
    let intervals = ((row.yb - row.ya) / (step * row.stdv)).rounded(.up)
    row.intervals = intervals < Self.maximumIntervals ? intervals : Self.maximumIntervals
    let width = (previous.yb - previous.ya) / previous.intervals
    density = Self.carried(
      density, intervals: previousIntervals, ya: previous.ya, width: width,
      to: Self.linspace(row.ya, row.yb, Int(row.intervals) + 1), stdv: row.stdv)
    looks.append(row)
  }

  /// The chance of continuing below the previous look's bounds and then lying above `x` (`_qp`).
  static func crossing(_ x: Double, _ density: [Double], intervals: Int, ya: Double, yb: Double, stdv: Double) -> Double {
    let width = (yb - ya) / Double(intervals)
    let values = zip(linspace(ya, yb, intervals + 1), density).map { y, d in d * GSL.value { gsl_cdf_ugaussian_P((y - x) / stdv) } }
    return 0.5 * width * (2 * pairwiseSum(values) - values[0] - values[values.count - 1])
  }

  /// The bound on the process at which `crossing` spends `target`: Confidence's decimal search
  /// (`_bsearch`), steps of 1, then 0.1, 0.01, … from the previous bound, turning when it overshoots.
  static func search(_ density: [Double], intervals: Int, target: Double, stdv: Double, ya: Double, yb: Double)
    throws(ConfidenceBoundsError) -> Double
  {
    let steps = 50
    var decimal = 10.0
    var bound = yb
    var spent = crossing(bound, density, intervals: intervals, ya: ya, yb: yb, stdv: stdv)
    while abs(spent - target) > tolerance {
      decimal /= 10
      // Confidence would search forever once the step no longer moves the bound.
      guard bound + decimal != bound else { throw .searchDidNotConverge }
      let direction = spent > target + tolerance ? 1.0 : -1.0
      var j = 1
      while j <= steps {
        bound += direction * decimal
        spent = crossing(bound, density, intervals: intervals, ya: ya, yb: yb, stdv: stdv)
        if abs(spent - target) > tolerance, j >= steps {
          break
        } else if (direction == 1 && spent <= target + tolerance) || (direction == -1 && spent >= target - tolerance) {
          j = steps
        }
        j += 1
      }
    }
    return bound
  }

  /// The density of the process at `points`, having continued below the previous look's bounds
  /// (`_fcab`): the previous density convolved with the step's normal increment, by the trapezoid rule,
  /// adding the grid's terms in Confidence's order.
  ///
  /// Confidence evaluates the normal kernel at every pair of grid points, a million exponentials a look.
  /// Along the grid the kernel's argument grows by a constant step, so each value follows from its
  /// neighbour by two products (exp(−(s+d)²/2) = exp(−s²/2)·exp(−sd − d²/2)), evaluated afresh every
  /// 16 points so that rounding cannot build up (under 1e-13 relatively); terms where the kernel is
  /// below 1e-40 of its peak are left out, as they move no sum by a representable amount at the scale
  /// of the looks' spending.
  static func carried(_ density: [Double], intervals: Int, ya: Double, width: Double, to points: [Double], stdv: Double) -> [Double] {
    let constant = 1 / (2 * Double.pi).squareRoot() / stdv
    let d = width / stdv
    let decay = exp(-d * d)
    var kernel = [Double](repeating: 0, count: intervals + 1)
    return points.map { point in
      let x = point / stdv
      func argument(_ k: Int) -> Double { (width * Double(k) + ya) / stdv - x }
      let center = min(max(Int(((point - ya) / width).rounded()), 0), intervals)
      // Walks from the grid point nearest `x` outwards (`direction` +1 or −1), filling `kernel` while it is
      // not negligible; the last point filled, `nil` when even the nearest is negligible.
      func walk(_ points: some Sequence<Int>, direction: Double) -> Int? {
        var value = 0.0, ratio = 0.0, last: Int?
        for k in points {
          if abs(k - center) % 16 == 0 {
            let s = argument(k)
            value = exp(-0.5 * (s * s))
            ratio = exp(-direction * s * d - 0.5 * d * d)
          } else {
            value *= ratio
            ratio *= decay
          }
          guard value >= 1e-40 else { break }
          kernel[k] = value
          last = k
        }
        return last
      }
      // The kernel's window: [low, high], empty when even the nearest point is negligible.
      let high = walk(center...intervals, direction: 1) ?? center - 1
      let low = walk(stride(from: center, through: 0, by: -1), direction: -1) ?? center
      guard low <= high else { return 0 }
      var total = 0.0
      for k in low...high { total += density[k] * (constant * kernel[k]) }
      let first = low == 0 ? density[0] * (constant * kernel[0]) : 0
      let last = high == intervals ? density[intervals] * (constant * kernel[intervals]) : 0
      return 0.5 * width * (2 * total - first - last)
    }
  }

  /// The standard normal density at `x`, divided by `scale` (`_fast_norm_pdf_prescaled`).
  static func normalDensity(_ x: Double, scale: Double) -> Double {
    let constant = 1 / (2 * Double.pi).squareRoot() / scale
    return constant * exp(-0.5 * (x * x))
  }

  /// numpy's `linspace`: start + i·step, the last point exactly `stop`.
  static func linspace(_ start: Double, _ stop: Double, _ count: Int) -> [Double] {
    guard count > 1 else { return count == 1 ? [start] : [] }
    let step = (stop - start) / Double(count - 1)
    var points = (0..<count).map { Double($0) * step + start }
    points[count - 1] = stop
    return points
  }

  /// numpy's sum of a contiguous array: pairwise in blocks of 128, each block over eight accumulators,
  /// so that the bench adds in Confidence's order.
  static func pairwiseSum(_ values: [Double]) -> Double {
    values.withUnsafeBufferPointer { pairwiseSum($0[...]) }
  }

  private static func pairwiseSum(_ values: Slice<UnsafeBufferPointer<Double>>) -> Double {
    let n = values.count, base = values.startIndex
    if n < 8 {
      var total = 0.0
      for value in values { total += value }
      return total
    }
    if n <= 128 {
      var r = (0..<8).map { values[base + $0] }
      var i = 8
      while i < n - n % 8 {
        for j in 0..<8 { r[j] += values[base + i + j] }
        i += 8
      }
      var total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
      while i < n {
        total += values[base + i]
        i += 1
      }
      return total
    }
    var half = n / 2
    half -= half % 8
    return pairwiseSum(values[base..<(base + half)]) + pairwiseSum(values[(base + half)...])
  }
}

/// Why Confidence computes no bounds for a set of looks; spotify-confidence raises on each.
public enum ConfidenceBoundsError: Error, Hashable, Sendable, CustomStringConvertible {
  case sides(Int)
  case alpha(Double)
  case zeroRatio
  case notIncreasing
  case lessConservativeThanFixedHorizon
  case searchDidNotConverge
  case wholeAlphaAtFirstLook

  public var description: String {
    switch self {
    case .sides(let sides): "a test has one side or two, not \(sides)"
    case .alpha(let alpha): "alpha must lie between 0 and 1, not \(alpha)"
    case .zeroRatio: "an information ratio is 0 or not finite: a look with no devices has no bound"
    case .notIncreasing: "information ratios must not decrease from look to look"
    case .lessConservativeThanFixedHorizon: "the last bound is below the fixed-horizon one (the grid was too coarse)"
    case .searchDidNotConverge: "the search for a bound did not reach the alpha to spend"
    case .wholeAlphaAtFirstLook: "the first look would spend the whole alpha (an information ratio far above 1)"
    }
  }
}
