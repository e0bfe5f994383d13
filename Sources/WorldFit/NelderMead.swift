/// The minimum of a function of a few variables by Nelder and Mead's simplex
/// (reflection 1, expansion 2, contraction ½, shrink ½), deterministic from
/// its start: what the activity fit searches its three parameters with.
struct NelderMead {
  var iterations = 600
  /// The spread of the simplex's values at which the search stops.
  var tolerance = 1e-9

  func minimize(_ function: ([Double]) -> Double, from start: [Double], step: Double = 0.5) -> [Double] {
    let dimensions = start.count
    var points = [start] + (0..<dimensions).map { index in
      var point = start
      point[index] += step
      return point
    }
    var values = points.map(function)
    for _ in 0..<iterations {
      let order = values.indices.sorted { values[$0] < values[$1] }
      points = order.map { points[$0] }
      values = order.map { values[$0] }
      guard let best = values.first, let worst = values.last, abs(worst - best) > tolerance * (abs(best) + tolerance) else {
        break
      }
      let centroid = (0..<dimensions).map { index in points.dropLast().reduce(0) { $0 + $1[index] } / Double(dimensions) }
      func along(_ factor: Double) -> [Double] {
        zip(centroid, points[dimensions]).map { $0 + factor * ($0 - $1) }
      }
      let reflected = along(1), reflectedValue = function(reflected)
      if reflectedValue < values[0] {
        let expanded = along(2), expandedValue = function(expanded)
        (points[dimensions], values[dimensions]) = expandedValue < reflectedValue ? (expanded, expandedValue) : (reflected, reflectedValue)
      } else if reflectedValue < values[dimensions - 1] {
        (points[dimensions], values[dimensions]) = (reflected, reflectedValue)
      } else {
        let contracted = along(-0.5), contractedValue = function(contracted)
        if contractedValue < values[dimensions] {
          (points[dimensions], values[dimensions]) = (contracted, contractedValue)
        } else {
          for index in 1...dimensions {
            points[index] = zip(points[0], points[index]).map { $0 + 0.5 * ($1 - $0) }
            values[index] = function(points[index])
          }
        }
      }
    }
    return points[values.indices.min { values[$0] < values[$1] }!]
  }
}
