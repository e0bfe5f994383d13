/// An outcome the scenario measures, with the truth the simulation draws it from.
///
/// A device's outcome depends on what it was shown: on every day an experiment
/// is displayed to it, the displayed variant's lift applies, and a device shown
/// several variants carries the average of their lifts over its display days.
public struct Metric: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// A yes-or-no outcome per device, e.g. subscribed; `baseline` is its probability.
    case conversion
    /// A positive amount per device, e.g. revenue; `baseline` is its mean.
    case continuous(ContinuousDistribution)
  }

  public var name: String
  public var kind: Kind
  /// The rate or mean for a device that sees only baselines.
  public var baseline: Double
  /// Per-segment replacements of `baseline`, by segment name.
  public var segmentBaselines: [String: Double]
  /// The relative lift of each variant, by experiment and variant name; a
  /// variant without one has lift 0.
  public var lifts: [String: [String: Double]]
  /// Per-segment replacements of `lifts`, by segment, experiment and variant.
  public var segmentLifts: [String: [String: [String: Double]]]
  /// Lifts that start elsewhere and settle to `lifts`, by experiment.
  public var novelty: [String: Novelty] = [:]
  /// With a value, each device also has a covariate measured before the
  /// experiment: a standard normal whose correlation with the outcome the
  /// device would have under the baselines is this. The analysis adjusts the
  /// metric by it (CUPED), so the variance of its estimates falls by this
  /// correlation's square.
  public var covariateCorrelation: Double?
  /// The quantiles of a continuous metric's amounts to compare besides its
  /// mean, e.g. 0.5 and 0.9: a median moves when a typical device changes,
  /// where a mean may follow a few large spenders.
  public var quantiles: [Double] = []
  /// With a value p, the analysis also compares the metric's means with
  /// every amount capped at the pooled p-th percentile of the experiment's
  /// devices: a few huge spenders then move the estimate less, at the cost
  /// of a bias against the true lift of the uncapped means.
  public var winsorize: Double?

  /// The name a quantile's analysis goes by: `revenue.p90` for 0.9 of
  /// revenue. A metric's name has no dot, so it names no other metric.
  public static func quantileName(metric: String, quantile: Double) -> String {
    "\(metric).p\(String(format: "%g", quantile * 100))"
  }

  /// The name the capped metric's analysis goes by: `revenue.w99` for
  /// revenue capped at its 99th percentile.
  public static func winsorizedName(metric: String, percentile: Double) -> String {
    "\(metric).w\(String(format: "%g", percentile * 100))"
  }

  /// The rate or mean of `segment` for devices that see only baselines.
  public func baseline(in segment: String) -> Double {
    segmentBaselines[segment] ?? baseline
  }

  /// The lift of `variant` of `experiment` for a device of `segment`: the
  /// settled one, where the experiment's effect has `novelty`.
  public func lift(of variant: String, in experiment: String, segment: String) -> Double {
    segmentLifts[segment]?[experiment]?[variant] ?? lifts[experiment]?[variant] ?? 0
  }

  /// The lift of `variant` on the day of a device's first exposure: its
  /// novelty's initial lift, or the settled one.
  public func initialLift(of variant: String, in experiment: String, segment: String) -> Double {
    novelty[experiment]?.initialLifts[variant] ?? lift(of: variant, in: experiment, segment: segment)
  }

  public init(
    name: String, kind: Kind, baseline: Double, segmentBaselines: [String: Double], lifts: [String: [String: Double]],
    segmentLifts: [String: [String: [String: Double]]], covariateCorrelation: Double? = nil
  ) {
    self.name = name
    self.kind = kind
    self.baseline = baseline
    self.segmentBaselines = segmentBaselines
    self.lifts = lifts
    self.segmentLifts = segmentLifts
    self.covariateCorrelation = covariateCorrelation
  }
}

/// The distribution of a continuous metric around its mean.
public enum ContinuousDistribution: Hashable, Sendable {
  /// Log-normal with this standard deviation of the logarithm.
  case lognormal(sigma: Double)
  /// Gamma with this shape (the coefficient of variation is 1/√shape).
  case gamma(shape: Double)
}

extension Metric {
  /// The means an amount metric may have, baselines and a device's largest
  /// mean alike: exact sums hold any such amount at any population, with
  /// variances far from the largest double.
  public static let acceptedMeans: ClosedRange<Double> = 1e-12...1e15

  /// The largest mean a device can have: a segment's baseline times, for
  /// every experiment with a lift, 1 plus its largest positive lift, settled
  /// or initial (a device shown each experiment's best variant). 1 for a conversion, whose
  /// probability stops at 1. Exact sums pick their grid from it.
  public func largestMean(in population: Population) -> Double {
    guard kind != .conversion else { return 1 }
    return population.segments.map { segment in
      let segmentLifts = self.segmentLifts[segment.name] ?? [:]
      let experiments = Set(lifts.keys).union(segmentLifts.keys).union(novelty.keys)
      return experiments.sorted().reduce(baseline(in: segment.name)) { mean, experiment in
        let variants = Set(lifts[experiment]?.keys ?? [:].keys).union(segmentLifts[experiment]?.keys ?? [:].keys)
          .union(novelty[experiment]?.initialLifts.keys ?? [:].keys)
        let largest = variants.map {
          max(lift(of: $0, in: experiment, segment: segment.name), initialLift(of: $0, in: experiment, segment: segment.name))
        }.max() ?? 0
        return mean * (1 + max(0, largest))
      }
    }.max() ?? baseline
  }

  /// The lift the scenario gives `variant` over `baseline` on this metric:
  /// Σₛ wₛ bₛ (1 + liftᵥ,ₛ) / Σₛ wₛ bₛ (1 + lift_baseline,ₛ) − 1 over the
  /// segments s with shares wₛ and baselines bₛ. It is the truth a comparison
  /// estimates when every device sees one variant; 0 exactly when neither
  /// variant has a lift in any segment.
  public func trueLift(of variant: String, over baseline: String, in experiment: String, population: Population) -> Double {
    var treated = 0.0, untreated = 0.0
    for segment in population.segments {
      let weight = segment.share * self.baseline(in: segment.name)
      treated += weight * (1 + lift(of: variant, in: experiment, segment: segment.name))
      untreated += weight * (1 + lift(of: baseline, in: experiment, segment: segment.name))
    }
    return untreated > 0 ? treated / untreated - 1 : 0
  }

  /// The lift the scenario gives every quantile of `variant`'s amounts over
  /// `baseline`'s: a lift multiplies a device's amount, so where
  /// (1 + liftᵥ)/(1 + lift_baseline) is the same in every segment, the whole
  /// distribution, and with it each quantile, is scaled by it. `nil` where
  /// segments differ: the quantile of a mixture moves by no single factor.
  public func quantileLift(of variant: String, over baseline: String, in experiment: String, population: Population) -> Double? {
    let factors = population.segments.map { segment in
      (1 + lift(of: variant, in: experiment, segment: segment.name))
        / (1 + lift(of: baseline, in: experiment, segment: segment.name))
    }
    guard let first = factors.first, factors.allSatisfy({ abs($0 - first) <= 1e-12 * first }) else { return nil }
    return first - 1
  }
}
