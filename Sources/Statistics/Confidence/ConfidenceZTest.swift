import Foundation
import _CGSL

/// Spotify Confidence's analysis of an experiment, as spotify-confidence 4.1.0
/// computes it (`ZTest(...).multiple_difference(level=control, ...)` with
/// the "spot-1-bonferroni" correction that Confidence's risk-aware decisions
/// use): every treatment against the control on every metric, by a z test of
/// the difference of means.
///
/// A success metric is tested for an increase, a guardrail for being no worse
/// than its non-inferiority margin (a share of the control's mean), a metric
/// without a preferred direction both ways. Alpha is split over the
/// treatments and the success metrics only, never the guardrails (Schultzberg,
/// Ankargren and Frånberg, "Risk-aware product decisions in A/B tests with
/// multiple metrics", 2024); a one-sided comparison is run as a two-sided one
/// at twice the alpha, as the library does. Read at several looks towards a
/// planned sample, each comparison's alpha is spent by group-sequential bounds
/// (`ConfidenceBounds`) instead, and its p-value is not reported.
public struct ConfidenceZTest: Sendable {
  /// The confidence of the intervals; alpha is 1 less it (Confidence's `interval_size`).
  public var intervalSize: Double

  public init(intervalSize: Double = 0.95) {
    self.intervalSize = intervalSize
  }

  /// A metric's role in the test.
  public struct Metric: Hashable, Sendable {
    public enum Preference: Hashable, Sendable {
      case increase
      case decrease
      case twoSided
    }

    /// The share of the control's mean a treatment may lose (gain, for `decrease`) and still be
    /// non-inferior: a guardrail. `nil`: a success metric, or a metric without a preferred direction.
    public var nonInferiorityMargin: Double?
    public var preference: Preference

    public init(nonInferiorityMargin: Double? = nil, preference: Preference) {
      self.nonInferiorityMargin = nonInferiorityMargin
      self.preference = preference
    }

    /// Whether alpha is split over it: every metric without a margin.
    var countsAsSuccess: Bool { nonInferiorityMargin == nil }
  }

  /// One treatment's comparison with the control on one metric at one look.
  public struct Comparison: Hashable, Sendable {
    public var metric: Int
    /// The treatment's index among the arms (the control is 0).
    public var treatment: Int
    /// The treatment's mean less the control's.
    public var difference: Double
    public var standardError: Double
    /// The difference the test rejects: 0, or the signed margin times the control's mean.
    public var nullHypothesis: Double
    /// The comparison's alpha before correction: twice Confidence's alpha for a one-sided comparison.
    public var alpha: Double
    /// The alpha after correction: split by Bonferroni, or spent by the look's sequential bound.
    public var adjustedAlpha: Double
    /// The two-sided p-value against the null; `nil` on a sequential read.
    public var pValue: Double?
    public var adjustedPValue: Double?
    public var isSignificant: Bool
    public var interval: Interval
    public var adjustedInterval: Interval

    /// Significant, and on the favourable side of the null: an improvement for a success metric,
    /// non-inferiority for a guardrail.
    public var isSignificantlyBetter: Bool { isSignificant && difference > nullHypothesis }
    /// Significant, and on the unfavourable side of the null.
    public var isSignificantlyWorse: Bool { isSignificant && difference < nullHypothesis }
  }

  /// The comparisons of a fixed-horizon read: per metric, per treatment (in the arms' order).
  /// `arms[a][m]` is arm `a`'s summary of metric `m`; arm 0 is the control.
  public func compare(metrics: [Metric], arms: [[ConfidenceSummary]]) throws(ConfidenceError) -> [Comparison] {
    let comparisons = self.comparisons(metrics: metrics, arms: arms)
    var rows: [Comparison] = []
    for (metricIndex, metric) in metrics.enumerated() {
      let column = arms.map { $0[metricIndex] }
      let binary = ConfidenceSummary.isBinary(column), adjustment = ConfidenceSummary.adjustment(column)
      for treatment in arms.indices.dropFirst() {
        var row = try comparison(metric, index: metricIndex, treatment: treatment, arms: arms, binary: binary, adjustment: adjustment)
        row.adjustedAlpha = row.alpha / Double(comparisons)
        let p = pValue(row)
        row.pValue = p
        row.adjustedPValue = min(p * Double(comparisons), 1)
        row.isSignificant = p < row.adjustedAlpha
        row.adjustedInterval = interval(row, alpha: row.adjustedAlpha)
        rows.append(row)
      }
    }
    return rows
  }

  /// The comparisons at every look of a sequential read towards `finalExpectedSampleSize` devices in each
  /// comparison (the control's and the treatment's together): per look, per metric, per treatment.
  /// `looks[l][a][m]` is arm `a`'s summary of metric `m` at look `l`, each look's counts including the
  /// looks' before it.
  public func compareSequentially(metrics: [Metric], looks: [[[ConfidenceSummary]]], finalExpectedSampleSize: Double)
    throws(ConfidenceError) -> [[Comparison]]
  {
    guard let first = looks.first else { return [] }
    let comparisons = self.comparisons(metrics: metrics, arms: first)
    var rows = looks.map { _ in [Comparison]() }
    for (metricIndex, metric) in metrics.enumerated() {
      let column = looks.lazy.flatMap { $0.map { $0[metricIndex] } }
      let binary = ConfidenceSummary.isBinary(column), adjustment = ConfidenceSummary.adjustment(column)
      for treatment in first.indices.dropFirst() {
        let series = try looks.map { arms throws(ConfidenceError) in
          try comparison(metric, index: metricIndex, treatment: treatment, arms: arms, binary: binary, adjustment: adjustment)
        }
        let totals = looks.map { Double($0[0][metricIndex].n + $0[treatment][metricIndex].n) }
        let largest = totals.map { max($0, finalExpectedSampleSize) }.max() ?? finalExpectedSampleSize
        let bounds: [Double]
        do {
          bounds = try ConfidenceBounds.bounds(
            informationRatios: totals.map { $0 / largest }, alpha: series[0].alpha / Double(comparisons), sides: 2)
        } catch {
          throw .bounds(error)
        }
        for (look, bound) in bounds.enumerated() { rows[look].append(sequential(series[look], bound: bound)) }
      }
    }
    return rows
  }

  /// A sequential read kept up to date look by look, as a results page read every day is: each look's
  /// comparisons are those `compareSequentially` gives for the looks so far, and its bounds extend the
  /// day before's unless the looks' largest sample changed, which rescales every look.
  public struct SequentialRead: Sendable {
    public let test: ConfidenceZTest
    public let metrics: [Metric]
    public let finalExpectedSampleSize: Double
    private var looks: [[[ConfidenceSummary]]] = []
    /// Per metric and treatment: the bounds so far, and the sample they divide by.
    private var solvers: [[(bounds: ConfidenceBounds, largest: Double)?]] = []

    public init(test: ConfidenceZTest, metrics: [Metric], finalExpectedSampleSize: Double) {
      self.test = test
      self.metrics = metrics
      self.finalExpectedSampleSize = finalExpectedSampleSize
    }

    /// The comparisons at the next look, `arms[a][m]` as in `compareSequentially`: per metric, per treatment.
    public mutating func look(_ arms: [[ConfidenceSummary]]) throws(ConfidenceError) -> [Comparison] {
      looks.append(arms)
      let comparisons = test.comparisons(metrics: metrics, arms: looks[0])
      if solvers.isEmpty { solvers = metrics.map { _ in Array(repeating: nil, count: max(0, arms.count - 1)) } }
      var rows: [Comparison] = []
      for (metricIndex, metric) in metrics.enumerated() {
        let column = looks.lazy.flatMap { $0.map { $0[metricIndex] } }
        let binary = ConfidenceSummary.isBinary(column), adjustment = ConfidenceSummary.adjustment(column)
        for treatment in arms.indices.dropFirst() {
          let row = try test.comparison(
            metric, index: metricIndex, treatment: treatment, arms: arms, binary: binary, adjustment: adjustment)
          let totals = looks.map { Double($0[0][metricIndex].n + $0[treatment][metricIndex].n) }
          let largest = totals.map { max($0, finalExpectedSampleSize) }.max() ?? finalExpectedSampleSize
          let bound: Double
          do {
            if var kept = solvers[metricIndex][treatment - 1], kept.largest == largest {
              bound = try kept.bounds.look(at: totals[totals.count - 1] / largest)
              solvers[metricIndex][treatment - 1] = kept
            } else {
              var bounds = try ConfidenceBounds(alpha: row.alpha / Double(comparisons), sides: 2)
              for total in totals.dropLast() { try bounds.append(total / largest) }
              bound = try bounds.look(at: totals[totals.count - 1] / largest)
              solvers[metricIndex][treatment - 1] = (bounds, largest)
            }
          } catch {
            solvers[metricIndex][treatment - 1] = nil
            throw .bounds(error)
          }
          rows.append(test.sequential(row, bound: bound))
        }
      }
      return rows
    }
  }

  /// A comparison read against its look's sequential bound: significant when its p-value is below the
  /// alpha the bound spends.
  func sequential(_ comparison: Comparison, bound: Double) -> Comparison {
    var row = comparison
    row.adjustedAlpha = 2 * (1 - GSL.value { gsl_cdf_ugaussian_P(bound) })
    row.isSignificant = pValue(row) < row.adjustedAlpha
    row.adjustedInterval = interval(row, alpha: row.adjustedAlpha)
    return row
  }

  /// How many ways alpha is split: the treatments times the metrics without a margin (at least one).
  func comparisons(metrics: [Metric], arms: [[ConfidenceSummary]]) -> Int {
    max(1, (arms.count - 1) * max(1, metrics.count { $0.countsAsSuccess }))
  }

  /// A comparison's estimate, null, alpha and unadjusted interval; its adjusted figures are the caller's.
  /// With a feature's `adjustment`, the means and variances are the adjusted ones, while the null's
  /// margin stays a share of the control's plain mean.
  func comparison(
    _ metric: Metric, index: Int, treatment: Int, arms: [[ConfidenceSummary]], binary: Bool,
    adjustment: (slope: Double, featureMean: Double)?
  ) throws(ConfidenceError) -> Comparison {
    let control = arms[0][index], treated = arms[treatment][index]
    let controlMean = try control.adjustedPointEstimate(adjustment), treatedMean = try treated.adjustedPointEstimate(adjustment)
    let controlVariance = try control.variance(binary: binary, adjustment: adjustment)
    let treatedVariance = try treated.variance(binary: binary, adjustment: adjustment)
    let controlPlainMean = try control.pointEstimate()
    let standardError = (controlVariance / Double(control.n) + treatedVariance / Double(treated.n)).squareRoot()
    let null: Double =
      switch (metric.nonInferiorityMargin, metric.preference) {
      case (nil, _): 0
      case (let margin?, .increase): -margin * controlPlainMean
      case (let margin?, _): margin * controlPlainMean
      }
    let alpha0 = 1 - intervalSize
    var row = Comparison(
      metric: index, treatment: treatment, difference: treatedMean - controlMean, standardError: standardError,
      nullHypothesis: null, alpha: metric.preference == .twoSided ? alpha0 : 2 * alpha0, adjustedAlpha: .nan,
      pValue: nil, adjustedPValue: nil, isSignificant: false, interval: Interval(lower: .nan, upper: .nan),
      adjustedInterval: Interval(lower: .nan, upper: .nan))
    row.interval = interval(row, alpha: row.alpha)
    return row
  }

  /// statsmodels' two-sided z p-value of the difference against the null.
  func pValue(_ row: Comparison) -> Double {
    let z = (row.difference - row.nullHypothesis) / row.standardError
    return GSL.value { gsl_cdf_ugaussian_Q(abs(z)) } * 2
  }

  /// statsmodels' two-sided z interval at `alpha`.
  func interval(_ row: Comparison, alpha: Double) -> Interval {
    let critical = GSL.value { gsl_cdf_ugaussian_Pinv(1 - alpha / 2) }
    return Interval(lower: row.difference - critical * row.standardError, upper: row.difference + critical * row.standardError)
  }
}
