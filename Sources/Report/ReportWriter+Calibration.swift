import Lab
import Results
import ScenarioFormat

/// How often the analysis was right over the replications.
extension ReportWriter {
  mutating func writeCalibration(_ calibration: Calibration) {
    lines.append("## Calibration over \(NumberFormat.count(calibration.replications)) replications")
    lines.append("")
    lines.append("How often the analysis was right when the scenario was run again with other seeds.")
    lines.append("")
    let decided = calibration.experiments.flatMap { experiment in
      experiment.metrics.compactMap { metric in metric.decisions.map { (experiment.name, metric.metric, $0) } }
    }
    if !decided.isEmpty {
      lines.append("What the recommendations did, with 95% intervals: a right ship ships a variant that truly beats the baseline; a wrong sign is a significant decision against the true lift's direction.")
      lines.append("")
      lines.append("| Experiment | Metric | Right ship | Wrong ship | Keep baseline | Keep running | Withheld | Wrong sign |")
      lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
      for (experiment, metric, decisions) in decided {
        let cells = [
          decisions.rightShip, decisions.wrongShip, decisions.keepBaseline, decisions.inconclusive, decisions.withheld,
          decisions.wrongSign,
        ].map(NumberFormat.compactShare)
        lines.append("| \(experiment) | \(metric) | " + cells.joined(separator: " | ") + " |")
      }
      lines.append("")
    }
    lines.append("Where the true lift is 0 the share of significant results is the false-positive rate, elsewhere the power.")
    lines.append("")
    lines.append("| Experiment | Metric | Variant | True lift | Mean lift | Significant | Interval held the truth | Peeking significant | Always-valid significant |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for experiment in calibration.experiments {
      for metric in experiment.metrics {
        for comparison in metric.comparisons {
          lines.append(
            "| \(experiment.name) | \(metric.metric) | \(comparison.variant) | \(NumberFormat.signedPercent(comparison.trueLift)) | "
              + "\(NumberFormat.signedPercent(comparison.meanLift)) | "
              + "\(NumberFormat.percent(comparison.significantRate, decimals: 1)) | \(NumberFormat.percent(comparison.coverage, decimals: 1)) | "
              + "\(NumberFormat.percent(comparison.peekingSignificantRate, decimals: 1)) | \(NumberFormat.percent(comparison.alwaysValidSignificantRate, decimals: 1)) |")
        }
      }
    }
    lines.append("")
    for experiment in calibration.experiments {
      for metric in experiment.metrics {
        let winners = metric.winnerRates.filter { $0.rate > 0 }.map { "\($0.variant) \(NumberFormat.percent($0.rate, decimals: 1))" }
        lines.append(
          "- \(experiment.name), \(metric.metric): declared winner " + (winners.isEmpty ? "never" : winners.joined(separator: ", "))
            + "; no winner \(NumberFormat.percent(metric.noWinnerRate, decimals: 1)); not trustworthy \(NumberFormat.percent(metric.notTrustworthyRate, decimals: 1)); "
            + "against the true winner (\(metric.trueWinner ?? "none")) the winner named was right in \(Self.share(metric.correct)), "
            + "wrong in \(Self.share(metric.wrong)) and withheld in \(Self.share(metric.abstained)).")
        for comparison in metric.comparisons {
          guard let obrienFleming = comparison.obrienFlemingSignificantRate, let pocock = comparison.pocockSignificantRate
          else { continue }
          lines.append(
            "- \(experiment.name), \(metric.metric), \(comparison.variant): with alpha spending over the daily looks, a look "
              + "crossed O'Brien–Fleming's boundary in \(NumberFormat.percent(obrienFleming, decimals: 1)) of the replications "
              + "and Pocock's in \(NumberFormat.percent(pocock, decimals: 1)).")
        }
        let safe = metric.comparisons.compactMap { comparison in
          comparison.safeRate.map { "\(comparison.variant) \(NumberFormat.percent($0, decimals: 1))" }
        }
        if !safe.isEmpty {
          lines.append("- \(experiment.name), \(metric.metric) guardrail: shown safe \(safe.joined(separator: ", ")).")
        }
        let unadjusted = metric.comparisons.compactMap { comparison in
          comparison.unadjustedSignificantRate.map { "\(comparison.variant) \(NumberFormat.percent($0, decimals: 1))" }
        }
        if !unadjusted.isEmpty {
          lines.append(
            "- \(experiment.name), \(metric.metric): adjusted by the covariate (CUPED) as above; unadjusted, significant in "
              + "\(unadjusted.joined(separator: ", ")).")
        }
      }
    }
    lines.append("")
  }
}
