/// A metric whose unit is not the device: the sum of one metric over the sum
/// of another across a variant's devices, e.g. revenue per session. Its
/// variance comes from both sums and how they move together (the delta
/// method), not from devices as independent units of the ratio.
public struct RatioMetric: Hashable, Sendable {
  public var name: String
  /// The metrics summed above and below the line.
  public var numerator: String
  public var denominator: String

  public init(name: String, numerator: String, denominator: String) {
    self.name = name
    self.numerator = numerator
    self.denominator = denominator
  }

  /// The ratio the scenario gives `variant` over the one it gives `baseline`,
  /// less 1: each is Σₛ wₛ E[numerator]ₛ / Σₛ wₛ E[denominator]ₛ over the
  /// segments s with shares wₛ, the expectations of a device shown only that
  /// variant. 0 exactly when neither variant has a lift on either metric.
  public func trueLift(of variant: String, over baseline: String, in experiment: String, metrics: [Metric], population: Population) -> Double {
    guard let top = metrics.first(where: { $0.name == numerator }), let bottom = metrics.first(where: { $0.name == denominator })
    else { return 0 }
    func ratio(_ shown: String) -> Double {
      var above = 0.0, below = 0.0
      for segment in population.segments {
        above += segment.share * top.expectation(of: shown, in: experiment, segment: segment.name)
        below += segment.share * bottom.expectation(of: shown, in: experiment, segment: segment.name)
      }
      return above / below
    }
    let treated = ratio(variant), untreated = ratio(baseline)
    return treated == untreated ? 0 : treated / untreated - 1
  }
}

extension Metric {
  /// The expected outcome of a device of `segment` shown `variant` of
  /// `experiment` and baselines elsewhere; a probability stops at 1.
  func expectation(of variant: String, in experiment: String, segment: String) -> Double {
    let mean = baseline(in: segment) * (1 + lift(of: variant, in: experiment, segment: segment))
    return kind == .conversion ? min(1, mean) : mean
  }
}
