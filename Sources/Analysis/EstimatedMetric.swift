import Results
import ScenarioFormat
import Statistics

/// A metric whose variants each have an approximately normal estimate with a
/// known variance, a ratio of sums or a quantile of amounts: the analyzer
/// tests, compares and concludes on it the same way whatever it estimates.
struct EstimatedMetric {
  var name: String
  /// The test's name in results.json.
  var test: String
  /// The quantile it compares, or `nil` for a ratio.
  var quantile: Double?
  /// The devices each variant counts, in variant order.
  var counts: [Int]
  var estimates: [NormalEstimate?]
  /// Each variant's value with its interval, as the report prints it.
  var intervals: [Estimate?]
  var trueLifts: [Double?]

  /// The ratio metric at `index`: each variant's ratio by the delta method,
  /// with its normal interval.
  init(ratio index: Int, of variants: [VariantResult], confidence: Double) {
    let summaries = variants.map { $0.ratios[index] }
    name = summaries[0].name
    test = "delta-method-z"
    counts = summaries.map(\.n)
    estimates = summaries.map { summary in
      RatioSample(
        count: summary.n, numeratorMean: summary.numeratorMean ?? 0, numeratorVariance: summary.numeratorVariance ?? 0,
        denominatorMean: summary.denominatorMean ?? 0, denominatorVariance: summary.denominatorVariance ?? 0,
        covariance: summary.covariance ?? 0
      ).estimate
    }
    intervals = estimates.map { estimate in
      estimate.flatMap { estimate in
        estimate.interval(confidence: confidence).map { Estimate(value: estimate.value, lower: $0.lower, upper: $0.upper) }
      }
    }
    trueLifts = summaries.map(\.trueLift)
  }

  /// The quantile `q` of the amounts in distribution `index`: each variant's
  /// sample quantile with its order-statistic interval, and for comparisons
  /// the variance that interval implies.
  init(quantile q: Double, distribution index: Int, of variants: [VariantResult], confidence: Double) {
    let distributions = variants.map { $0.distributions[index] }
    let samples = distributions.map {
      SortedSample(values: $0.values, counts: $0.counts, lowerEdges: $0.lowerEdges, upperEdges: $0.upperEdges)
    }
    name = Metric.quantileName(metric: distributions[0].metric, quantile: q)
    test = "quantile-z"
    quantile = q
    counts = samples.map(\.count)
    estimates = samples.map { $0.estimate(q, confidence: confidence) }
    intervals = samples.map { sample in
      guard let value = sample.quantile(q), let interval = sample.interval(q, confidence: confidence) else { return nil }
      return Estimate(value: value, lower: interval.lower, upper: interval.upper)
    }
    trueLifts = distributions.map(\.trueLift)
  }
}
