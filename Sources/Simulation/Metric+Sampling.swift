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
  /// with the expected mean and the metric's spread, on the grid of `Moments`.
  func draw(baseline: Double, factor: Double, from stream: inout RandomStream) -> Double {
    let expected = expectation(baseline: baseline, factor: factor)
    switch self {
    case .conversion: return stream.nextBernoulli(expected) ? 1 : 0
    case .continuous(.lognormal(let sigma)): return Moments.quantize(expected * stream.nextUnitMeanLognormal(sigma: sigma))
    case .continuous(.gamma(let shape)): return Moments.quantize(expected * stream.nextUnitMeanGamma(shape: shape))
    }
  }
}
