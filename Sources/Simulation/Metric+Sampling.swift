import ScenarioFormat

extension Metric.Kind {
  /// The expected outcome of a device with `baseline` whose lifts multiply to
  /// `factor`; a conversion probability stops at 1.
  func expectation(baseline: Double, factor: Double) -> Double {
    switch self {
    case .conversion: return min(1, baseline * factor)
    case .continuous: return baseline * factor
    }
  }

  /// One outcome: a conversion with the expected probability, or an amount
  /// with the expected mean and the metric's spread, on the metric's grid.
  func draw(baseline: Double, factor: Double, grid: Moments, from stream: inout RandomStream) -> Double {
    let expected = expectation(baseline: baseline, factor: factor)
    switch self {
    case .conversion: return stream.nextBernoulli(expected) ? 1 : 0
    case .continuous(.lognormal(let sigma)): return grid.quantize(expected * stream.nextUnitMeanLognormal(sigma: sigma))
    case .continuous(.gamma(let shape)): return grid.quantize(expected * stream.nextUnitMeanGamma(shape: shape))
    }
  }
}
