import Foundation
import ScenarioFormat
import Tallies

extension Metric {
  /// Whether a run counts the metric's amounts by size (`AmountHistogram`):
  /// its quantiles and its winsorization need them.
  public var countsAmounts: Bool { !quantiles.isEmpty || winsorize != nil }
}

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

  /// One outcome as `draw` draws it, from the same draws of `stream`, with
  /// the outcome the device would have had under the baselines alone,
  /// standardized to mean 0 and variance 1: the same uniform against the
  /// baseline's probability, or the same unit-mean deviate. A conversion
  /// certain either way draws nothing from `stream`; its uniform then comes
  /// from `spare`.
  func drawWithStandardBaseline(
    baseline: Double, factor: Double, grid: Moments, from stream: inout RandomStream, spare: inout RandomStream
  ) -> (outcome: Double, standardBaseline: Double) {
    let expected = expectation(baseline: baseline, factor: factor)
    switch self {
    case .conversion:
      let unit = expected > 0 && expected < 1 ? stream.nextUnit() : spare.nextUnit()
      let outcome: Double = unit < expected ? 1 : 0
      let rate = min(1, baseline)
      guard rate > 0, rate < 1 else { return (outcome, 0) }
      return (outcome, ((unit < rate ? 1 : 0) - rate) / (rate * (1 - rate)).squareRoot())
    case .continuous(.lognormal(let sigma)):
      let deviate = stream.nextUnitMeanLognormal(sigma: sigma)
      return (grid.quantize(expected * deviate), (deviate - 1) / (exp(sigma * sigma) - 1).squareRoot())
    case .continuous(.gamma(let shape)):
      let deviate = stream.nextUnitMeanGamma(shape: shape)
      return (grid.quantize(expected * deviate), (deviate - 1) * shape.squareRoot())
    }
  }
}
