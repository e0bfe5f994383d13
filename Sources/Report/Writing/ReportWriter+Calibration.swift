import Lab
import Results
import ScenarioFormat

/// How often the analysis was right over the replications.
extension ReportWriter {
  mutating func writeCalibration(_ calibration: Calibration) {
    heading(2, "Calibration over \(NumberFormat.count(calibration.replications)) replications")
    paragraph("How often the analysis was right when the scenario was run again with other seeds.")
    let decided = calibration.experiments.flatMap { experiment in
      experiment.metrics.compactMap { metric in metric.decisions.map { (experiment.name, metric.metric, $0) } }
    }
    if !decided.isEmpty {
      paragraph(
        "What the recommendations did, with 95% intervals: a right ship ships a variant that truly beats the baseline; "
          + "a wrong sign is a significant decision against the true lift's direction.")
      var rates = ReportTable(
        columns: [.init("Experiment"), .init("Metric")]
          + ["Right ship", "Wrong ship", "Keep baseline", "Keep running", "Withheld", "Wrong sign"].map { .init(ReportText($0), numeric: true) })
      for (experiment, metric, decisions) in decided {
        let cells = [
          decisions.rightShip, decisions.wrongShip, decisions.keepBaseline, decisions.inconclusive, decisions.withheld,
          decisions.wrongSign,
        ].map(NumberFormat.compactShare)
        rates.append(([experiment, metric] + cells).map { ReportText($0) })
      }
      table(rates)
    }
    paragraph("Where the true lift is 0 the share of significant results is the false-positive rate, elsewhere the power.")
    var significance = ReportTable(
      columns: [.init("Experiment"), .init("Metric"), .init("Variant")]
        + [
          "True lift", "Mean lift", "Significant", "Interval held the truth", "Peeking significant", "Always-valid significant",
        ].map { .init(ReportText($0), numeric: true) })
    for experiment in calibration.experiments {
      for metric in experiment.metrics {
        for comparison in metric.comparisons {
          significance.append(
            [
              experiment.name, metric.metric, comparison.variant, NumberFormat.signedPercent(comparison.trueLift),
              NumberFormat.signedPercent(comparison.meanLift), NumberFormat.percent(comparison.significantRate, decimals: 1),
              NumberFormat.percent(comparison.coverage, decimals: 1), NumberFormat.percent(comparison.peekingSignificantRate, decimals: 1),
              NumberFormat.percent(comparison.alwaysValidSignificantRate, decimals: 1),
            ].map { ReportText($0) })
        }
      }
    }
    table(significance)
    var findings: [ReportText] = []
    for experiment in calibration.experiments {
      for metric in experiment.metrics {
        let winners = metric.winnerRates.filter { $0.rate > 0 }.map { "\($0.variant) \(NumberFormat.percent($0.rate, decimals: 1))" }
        findings.append(ReportText(
          "\(experiment.name), \(metric.metric): declared winner " + (winners.isEmpty ? "never" : winners.joined(separator: ", "))
            + "; no winner \(NumberFormat.percent(metric.noWinnerRate, decimals: 1)); not trustworthy \(NumberFormat.percent(metric.notTrustworthyRate, decimals: 1)); "
            + "against the true winner (\(metric.trueWinner ?? "none")) the winner named was right in \(Self.share(metric.correct)), "
            + "wrong in \(Self.share(metric.wrong)) and withheld in \(Self.share(metric.abstained))."))
        for comparison in metric.comparisons {
          guard let obrienFleming = comparison.obrienFlemingSignificantRate, let pocock = comparison.pocockSignificantRate
          else { continue }
          findings.append(ReportText(
            "\(experiment.name), \(metric.metric), \(comparison.variant): with alpha spending over the daily looks, a look "
              + "crossed O'Brien–Fleming's boundary in \(NumberFormat.percent(obrienFleming, decimals: 1)) of the replications "
              + "and Pocock's in \(NumberFormat.percent(pocock, decimals: 1))."))
        }
        let safe = metric.comparisons.compactMap { comparison in
          comparison.safeRate.map { "\(comparison.variant) \(NumberFormat.percent($0, decimals: 1))" }
        }
        if !safe.isEmpty {
          findings.append("\(experiment.name), \(metric.metric) guardrail: shown safe \(safe.joined(separator: ", ")).")
        }
        let unadjusted = metric.comparisons.compactMap { comparison in
          comparison.unadjustedSignificantRate.map { "\(comparison.variant) \(NumberFormat.percent($0, decimals: 1))" }
        }
        if !unadjusted.isEmpty {
          findings.append(ReportText(
            "\(experiment.name), \(metric.metric): adjusted by the covariate (CUPED) as above; unadjusted, significant in "
              + "\(unadjusted.joined(separator: ", "))."))
        }
      }
    }
    list(findings)
  }
}
