import Results
import ScenarioFormat
import Simulation

/// What an analysis of tables adds to its metrics from the devices' own
/// values, as a simulated run adds them from its tallies: ratio metrics,
/// quantiles of amounts, amounts winsorized at a pooled percentile, and the
/// pre-exposure covariate a metric is adjusted by (CUPED). Real values are
/// known exactly, so quantiles use every distinct value and the cap is a
/// value of the data.
public struct DerivedMetrics: Sendable, Equatable {
  public var ratios: [RatioMetric] = []
  /// Quantiles by metric, e.g. revenue → [0.5, 0.9].
  public var quantiles: [String: [Double]] = [:]
  /// The percentile each metric is capped at, e.g. revenue → 0.99.
  public var winsorize: [String: Double] = [:]

  public init() {}

  /// The scenario's, where it has them.
  init(scenario: Scenario) {
    ratios = scenario.ratios
    for metric in scenario.metrics {
      if !metric.quantiles.isEmpty { quantiles[metric.name] = metric.quantiles }
      if let percentile = metric.winsorize { winsorize[metric.name] = percentile }
    }
  }

  /// The metrics named that the analysis does not have, with the option that names each.
  func unknownMetrics(among metrics: [String], isConversion: [Bool]) -> [(option: String, metric: String, reason: String)] {
    var unknown: [(String, String, String)] = []
    for ratio in ratios {
      for metric in [ratio.numerator, ratio.denominator] where !metrics.contains(metric) {
        unknown.append(("--ratio \(ratio.name)", metric, "is not a metric of the analysis"))
      }
    }
    for (option, names) in [("--quantiles", quantiles.keys.sorted()), ("--winsorize", winsorize.keys.sorted())] {
      for metric in names {
        if let index = metrics.firstIndex(of: metric) {
          if isConversion[index] { unknown.append((option, metric, "is a conversion: it takes an amount")) }
        } else {
          unknown.append((option, metric, "is not a metric of the analysis"))
        }
      }
    }
    return unknown
  }

  /// Fills each variant's ratios, distributions and winsorized amounts from
  /// `raw`, the counted devices' values by variant and metric (aligned: the
  /// i-th value of every metric is one device's).
  func apply(
    to variants: inout [VariantResult], metrics: [String], stepExponents: [Int], raw: [[[Double]]]
  ) {
    for index in variants.indices {
      variants[index].ratios = ratios.map { ratio in
        let numerator = raw[index][metrics.firstIndex(of: ratio.numerator)!]
        let denominator = raw[index][metrics.firstIndex(of: ratio.denominator)!]
        let (numeratorMean, numeratorVariance) = Self.moments(numerator)
        let (denominatorMean, denominatorVariance) = Self.moments(denominator)
        return RatioSummary(
          name: ratio.name, n: numerator.count, numeratorMean: numeratorMean, numeratorVariance: numeratorVariance,
          denominatorMean: denominatorMean, denominatorVariance: denominatorVariance,
          covariance: Self.covariance(numerator, denominator), trueLift: nil)
      }
      variants[index].distributions = metrics.indices.compactMap { metric in
        guard let levels = quantiles[metrics[metric]] else { return nil }
        var counts: [Double: Int] = [:]
        for value in raw[index][metric] { counts[value, default: 0] += 1 }
        let values = counts.keys.sorted()
        return AmountDistribution(
          metric: metrics[metric], quantiles: levels, values: values, counts: values.map { counts[$0]! }, trueLift: nil)
      }
    }
    for metric in metrics.indices {
      guard let percentile = winsorize[metrics[metric]] else { continue }
      let cap = Self.cap(percentile: percentile, of: raw.map { $0[metric] })
      for index in variants.indices {
        var tally = MetricTally(stepExponent: stepExponents[metric])
        var capped = 0
        for value in raw[index][metric] {
          if let cap, value > cap { capped += 1 }
          tally.add(cap.map { min(value, $0) } ?? value, isConversion: false)
        }
        let summary = MetricSummary(
          name: Metric.winsorizedName(metric: metrics[metric], percentile: percentile), isConversion: false, n: tally.outcomes.count,
          conversions: nil, mean: tally.outcomes.mean, variance: tally.outcomes.sampleVariance, trueMean: nil, trueLift: nil)
        variants[index].winsorized.append(
          WinsorizedSummary(metric: metrics[metric], percentile: percentile, cap: cap, capped: capped, summary: summary))
      }
    }
  }

  /// The pooled percentile of the variants' values: the smallest value with
  /// at least that share of values at or below it (scipy's
  /// "inverted_cdf", the rule `AmountHistogram.cap` follows); nil without values.
  static func cap(percentile: Double, of samples: [[Double]]) -> Double? {
    let pooled = samples.flatMap { $0 }.sorted()
    guard !pooled.isEmpty else { return nil }
    let position = percentile * Double(pooled.count), whole = position.rounded()
    // A position that is a whole number but for rounding (0.99 × 10,000) is that rank.
    let rank = max(1, abs(position - whole) <= 1e-9 * max(1, position) ? Int(whole) : Int(position.rounded(.up)))
    return pooled[min(rank, pooled.count) - 1]
  }

  /// The mean and the sample variance (n − 1), two-pass; nil below one and two values.
  static func moments(_ values: [Double]) -> (mean: Double?, variance: Double?) {
    guard !values.isEmpty else { return (nil, nil) }
    let mean = values.reduce(0, +) / Double(values.count)
    guard values.count > 1 else { return (mean, nil) }
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return (mean, squares / Double(values.count - 1))
  }

  /// The sample covariance (n − 1), two-pass; nil below two pairs.
  static func covariance(_ x: [Double], _ y: [Double]) -> Double? {
    guard x.count > 1, let meanX = moments(x).mean, let meanY = moments(y).mean else { return nil }
    return zip(x, y).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) } / Double(x.count - 1)
  }

  /// The covariate's summary over a variant's counted devices, against their outcomes.
  static func covariate(_ covariates: [Double], outcomes: [Double]) -> CovariateSummary {
    let (mean, variance) = moments(covariates)
    return CovariateSummary(mean: mean, variance: variance, covariance: covariance(covariates, outcomes))
  }
}
