import Results
import ScenarioFormat
import Tallies

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
    // One namespace: every analysis goes by its own name in the report and results.json.
    var taken = Set(metrics)
    let derivedNames = ratios.map { ("--ratio", $0.name) }
      + quantiles.keys.sorted().flatMap { metric in
        quantiles[metric]!.map { ("--quantiles \(metric)", Metric.quantileName(metric: metric, quantile: $0)) }
      }
      + winsorize.keys.sorted().map { metric in
        ("--winsorize \(metric)", Metric.winsorizedName(metric: metric, percentile: winsorize[metric]!))
      }
    for (option, name) in derivedNames where !taken.insert(name).inserted {
      unknown.append((option, name, "is the name of another metric or analysis too: give it a name of its own"))
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
        let numeratorIndex = metrics.firstIndex(of: ratio.numerator)!, denominatorIndex = metrics.firstIndex(of: ratio.denominator)!
        let numerator = Self.moments(raw[index][numeratorIndex], stepExponent: stepExponents[numeratorIndex])
        let denominator = Self.moments(raw[index][denominatorIndex], stepExponent: stepExponents[denominatorIndex])
        return RatioSummary(
          name: ratio.name, n: numerator.count, numeratorMean: numerator.mean, numeratorVariance: numerator.sampleVariance,
          denominatorMean: denominator.mean, denominatorVariance: denominator.sampleVariance,
          covariance: Self.covariance(
            raw[index][denominatorIndex], on: denominator, raw[index][numeratorIndex], on: numerator),
          trueLift: nil)
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
  /// at least that share of values at or below it, by `AmountHistogram.rank`,
  /// the rule a simulated run's cap follows; nil without values.
  static func cap(percentile: Double, of samples: [[Double]]) -> Double? {
    let pooled = samples.flatMap { $0 }.sorted()
    guard !pooled.isEmpty else { return nil }
    return pooled[AmountHistogram.rank(percentile: percentile, of: pooled.count) - 1]
  }

  /// The values' moments, exact on the grid of `stepExponent` (`Moments`),
  /// as a simulated run keeps them: whatever the order of the values.
  static func moments(_ values: [Double], stepExponent: Int) -> Moments {
    var moments = Moments(stepExponent: stepExponent)
    for value in values { moments.add(value) }
    return moments
  }

  /// The sample covariance (n − 1) of paired values whose moments are `x`
  /// and `y`, exact on their grids (`CrossProducts`); nil below two pairs.
  static func covariance(_ xValues: [Double], on x: Moments, _ yValues: [Double], on y: Moments) -> Double? {
    var products = CrossProducts()
    for (xValue, yValue) in zip(xValues, yValues) { products.add(xValue, on: x, times: yValue, on: y) }
    return products.covariance(x: x, y: y)
  }

  /// The covariate's summary over a variant's counted devices, against their
  /// outcomes (on the metric's grid); the covariate's grid fits `largest`,
  /// its largest magnitude over the experiment.
  static func covariate(
    _ covariates: [Double], largest: Double, outcomes: [Double], outcomeStepExponent: Int
  ) -> CovariateSummary {
    let covariate = moments(covariates, stepExponent: Moments.stepExponent(forLargest: largest))
    let outcome = moments(outcomes, stepExponent: outcomeStepExponent)
    return CovariateSummary(
      mean: covariate.mean, variance: covariate.sampleVariance,
      covariance: covariance(covariates, on: covariate, outcomes, on: outcome))
  }
}
