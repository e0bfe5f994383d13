import Lab
import Results
import ScenarioFormat

/// An experiment's charts: exposures per day and each metric's lift over the days.
extension ReportWriter {
  mutating func writeCharts(_ experiment: ExperimentResult) {
    // A run of one day has no course over the days to draw.
    guard document.days > 1 else { return }
    let days = Array(0..<document.days)
    let prefix = [document.scenario, experiment.name]
    let exposures = LineChart(
      title: "\(experiment.name): devices shown each variant for the first time, per day", xLabel: "day",
      yLabel: "new devices",
      xValues: days,
      series: experiment.variants.enumerated().map { index, variant in
        LineChart.Series(name: variant.name, values: experiment.dailyNewExposures[index].map(Double.init), colour: index)
      },
      formatY: { NumberFormat.count(Int($0.rounded())) })
    // A chart a block, so that each takes the column's width.
    chart(exposures, description: "Devices shown each variant for the first time, per day", named: prefix, suffix: "-exposures.svg")
    for analysis in experiment.analysis where !analysis.comparisons.isEmpty {
      var series: [LineChart.Series] = []
      var settled: [Double] = []
      // A band much wider than the narrowest (a variant of few devices) would flatten every other line:
      // the axis follows the informative ones, and the wide band is clipped and marked at the edge.
      let widths = analysis.comparisons.map { comparison in
        comparison.dailyLift.suffix(max(days.count / 2, 1)).compactMap { $0.map { $0.upper - $0.lower } }.max()
      }
      let narrowest = widths.compactMap { $0 }.filter { $0.isFinite && $0 > 0 }.min()
      for (position, comparison) in analysis.comparisons.enumerated() {
        let colour = experiment.variants.firstIndex { $0.name == comparison.variant } ?? 0
        series.append(LineChart.Series(
          name: comparison.variant, values: comparison.dailyLift.map { $0?.value }, colour: colour,
          band: (comparison.dailyLift.map { $0?.lower }, comparison.dailyLift.map { $0?.upper })))
        if let truth = comparison.trueLift {
          series.append(LineChart.Series(
            name: "\(comparison.variant) true lift", values: days.map { _ in truth }, dashed: true, colour: colour))
          settled.append(truth)
        }
        // Early days' intervals are huge; scale the axis to the second half of the run and mark what is clipped.
        let informative = narrowest.map { (widths[position] ?? 0) <= 4 * $0 } ?? true
        for estimate in comparison.dailyLift.suffix(max(days.count / 2, 1)).compactMap({ $0 }) {
          settled += informative ? [estimate.value, estimate.lower, estimate.upper] : [estimate.value]
        }
      }
      let lift = LineChart(
        title: "\(experiment.name): cumulative lift on \(analysis.metric) vs \(experiment.baseline)",
        xLabel: "day (devices first exposed by the end of it)", yLabel: "relative lift, \(confidence) interval shaded",
        xValues: days, series: series,
        reference: (0, "no effect"), yExtent: settled.isEmpty ? nil : settled, formatY: { NumberFormat.trim(percent: $0) })
      chart(lift, description: "Lift on \(analysis.metric) over the days", named: prefix + [analysis.metric], suffix: "-lift.svg")
      if analysis.comparisons.allSatisfy({ !$0.looks.isEmpty }) {
        var pSeries: [LineChart.Series] = []
        for (offset, comparison) in analysis.comparisons.enumerated() {
          let colour = experiment.variants.firstIndex { $0.name == comparison.variant } ?? offset
          pSeries.append(LineChart.Series(name: "\(comparison.variant) naive", values: comparison.looks.map(\.pValue), dashed: true, colour: colour))
          pSeries.append(LineChart.Series(name: "\(comparison.variant) always valid", values: comparison.looks.map(\.alwaysValidPValue), colour: colour))
        }
        let looks = LineChart(
          title: "\(experiment.name): \(analysis.metric) p-values at each daily look",
          xLabel: "day", yLabel: "p-value", xValues: days, series: pSeries,
          reference: (input.settings.alpha, "alpha"), formatY: { NumberFormat.trim($0) })
        chart(
          looks, description: "Naive and always-valid p-values at each look", named: prefix + [analysis.metric], suffix: "-looks.svg")
      }
    }
  }
}
