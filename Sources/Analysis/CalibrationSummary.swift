import Results
import Statistics

/// How often the analysis of replications of one scenario was right: the
/// winners it declared, how often its verdict was correct, wrong, or withheld
/// as not trustworthy (each with its binomial interval), its false positives
/// on arms whose true lift is 0, its power on true effects, and how often its
/// intervals held the truth.
public enum CalibrationSummary {
  /// - Parameter documents: every replication's analysed document, in order.
  public static func calibrate(_ documents: [ResultsDocument], alpha: Double) -> Calibration {
    let count = Double(documents.count)
    let first = documents[0]
    let experiments = first.experiments.indices.map { experimentIndex in
      let experiment = first.experiments[experimentIndex]
      let metrics = experiment.analysis.indices.map { metricIndex in
        let analyses = documents.map { $0.experiments[experimentIndex].analysis[metricIndex] }
        let comparisons = experiment.analysis[metricIndex].comparisons.indices.map { comparisonIndex in
          let runs = analyses.map { $0.comparisons[comparisonIndex] }
          let significant = runs.filter { ($0.adjustedPValue ?? 1) < alpha }.count
          let covered = runs.compactMap { run -> Bool? in
            guard let interval = run.liftInterval, let truth = run.trueLift else { return nil }
            return interval.lower <= truth && truth <= interval.upper
          }
          let hasLooks = runs.allSatisfy { !$0.looks.isEmpty }
          func everSignificant(_ pValue: (Look) -> Double?) -> Double? {
            everCrossed { (pValue($0) ?? 1) < alpha }
          }
          func everCrossed(_ crosses: (Look) -> Bool) -> Double? {
            guard hasLooks else { return nil }
            return Double(runs.filter { $0.looks.contains(where: crosses) }.count) / count
          }
          return ComparisonCalibration(
            variant: runs[0].variant, trueLift: runs[0].trueLift, significantRate: Double(significant) / count,
            coverage: covered.isEmpty ? nil : Double(covered.filter { $0 }.count) / Double(covered.count),
            peekingSignificantRate: everSignificant(\.pValue),
            alwaysValidSignificantRate: everSignificant(\.alwaysValidPValue),
            obrienFlemingSignificantRate: everCrossed { $0.crosses($0.obrienFlemingAlpha) },
            pocockSignificantRate: everCrossed { $0.crosses($0.pocockAlpha) },
            safeRate: runs.allSatisfy { $0.nonInferiority != nil }
              ? Double(runs.filter { $0.nonInferiority?.isSafe == true }.count) / count : nil)
        }
        let trueWinner = analyses[0].trueWinner
        func share(_ isCounted: (MetricAnalysis) -> Bool) -> Share {
          let counted = analyses.filter(isCounted).count
          let interval = ProportionTests.wilsonInterval(successes: counted, trials: analyses.count, confidence: 0.95)
          return Share(count: counted, of: analyses.count, lower: interval?.lower, upper: interval?.upper)
        }
        return MetricCalibration(
          metric: analyses[0].metric,
          winnerRates: experiment.variants.map { variant in
            (variant.name, Double(analyses.filter { $0.winner == variant.name }.count) / count)
          },
          noWinnerRate: Double(analyses.filter { $0.verdict == .noWinner }.count) / count,
          notTrustworthyRate: Double(analyses.filter(\.isAbstention).count) / count,
          correct: share { !$0.isAbstention && $0.winner == trueWinner },
          wrong: share { !$0.isAbstention && $0.winner != trueWinner },
          abstained: share(\.isAbstention),
          trueWinner: trueWinner, comparisons: comparisons)
      }
      return ExperimentCalibration(name: experiment.name, metrics: metrics)
    }
    return Calibration(replications: documents.count, experiments: experiments)
  }
}
