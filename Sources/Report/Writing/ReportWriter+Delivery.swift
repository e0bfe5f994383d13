import Lab
import Results
import ScenarioFormat

/// How the remote values, stabilization and the service's files reached the devices.
extension ReportWriter {
  mutating func writeDelivery(_ delivery: DeliveryResult) {
    let stabilized = delivery.stabilized.last ?? 0
    let failed = delivery.failedFetches.reduce(0, +), overridden = delivery.overridden.reduce(0, +)
    let fallbacks = delivery.defaultFallbacks.reduce(0, +)
    guard stabilized > 0 || !delivery.enrollment.isEmpty else { return }
    heading(2, "Delivery")
    if !delivery.tracking.isEmpty {
      let totals = delivery.tracking.map { "\(NumberFormat.count($0.days.reduce(0, +))) \($0.name)" }
      paragraph(ReportText(
        "The app reads the remote values as KOMA does: after each successful fetch every key is tracked once ("
          + totals.joined(separator: ", ") + "; per day in results.json). A baseline-flagged value is shown without "
          + "its flag and counted in its own group."
          + (delivery.tracking.contains { $0.name == "customValue" }
            ? " On devices with the app's custom or debug values (custom first), those values stand in for valid remote "
              + "ones, which are then neither shown nor tracked as a group (customValue, debugValue)." : "")))
    }
    if !delivery.enrollment.isEmpty {
      paragraph(
        "Devices fetch the remote configuration at each launch; a failed fetch leaves them with their last data. A device "
          + "that stabilizes before its first successful fetch never receives the remote experiments, since stabilization "
          + "hides new experiments.")
    }
    var facts: [String] = []
    if stabilized > 0 {
      let first = delivery.stabilized.firstIndex { $0 > 0 } ?? 0
      facts.append("\(NumberFormat.count(stabilized)) devices called stabilize, the first on day \(first)")
    }
    if !delivery.enrollment.isEmpty {
      facts.append("\(NumberFormat.count(failed)) fetches failed or missed the time-out (\(NumberFormat.percent(document.launches > 0 ? Double(failed) / Double(document.launches) : nil, decimals: 1)) of launches); those devices kept their last data")
      facts.append("overrides changed a value on \(NumberFormat.count(overridden)) launches of stabilized devices")
      facts.append("\(NumberFormat.count(fallbacks)) values fell back to the app's default")
    }
    paragraph(ReportText(facts.joined(separator: "; ") + "."))
    if !delivery.enrollment.isEmpty {
      var enrollments = ReportTable(
        columns: [.init("Remote experiment")]
          + ["Devices it could reach", "Enrolled", "Never enrolled", "Mean days to enrol", "90% enrolled within"]
          .map { .init(ReportText($0), numeric: true) })
      for enrollment in delivery.enrollment {
        let never = enrollment.eligible - enrollment.enrolled
        let neverShare = NumberFormat.percent(enrollment.eligible > 0 ? Double(never) / Double(enrollment.eligible) : nil, decimals: 1)
        enrollments.append(
          [
            enrollment.experiment, NumberFormat.count(enrollment.eligible), NumberFormat.count(enrollment.enrolled),
            "\(NumberFormat.count(never)) (\(neverShare))", NumberFormat.decimal(enrollment.meanDaysToEnroll),
            enrollment.daysToEnroll(share: 0.9).map { "\($0) days" } ?? "–",
          ].map { ReportText($0) })
      }
      table(enrollments)
    }
    list(delivery.churn.map { churn in
      ReportText(
        "\(churn.experiment)'s \(churn.variant) drove devices away while it carried its bug: \(NumberFormat.count(churn.exposed)) devices "
          + "held it, \(NumberFormat.count(churn.lost)) stopped launching, \(NumberFormat.count(churn.stuck)) had stabilized on it so that only an "
          + "override could reach them, and \(NumberFormat.count(churn.rescued)) later ran the variant without the bug.")
    })
    let days = Array(0..<document.days)
    // Only what happened: a series of zeros, or a chart of nothing but zeros, says nothing.
    let series = [
      LineChart.Series(name: "devices stabilized so far", values: delivery.stabilized.map(Double.init), colour: 0),
      LineChart.Series(name: "failed fetches that day", values: delivery.failedFetches.map(Double.init), colour: 1),
      LineChart.Series(name: "overridden launches that day", values: delivery.overridden.map(Double.init), colour: 2),
      LineChart.Series(name: "default fallbacks that day", values: delivery.defaultFallbacks.map(Double.init), colour: 3),
    ].filter { $0.values.contains { $0 != 0 } }
    guard !series.isEmpty, document.days > 1 else { return }
    let perDay = LineChart(
      title: "Delivery per day", xLabel: "day", yLabel: "devices or launches", xValues: days, series: series,
      formatY: { NumberFormat.count(Int($0.rounded())) })
    chart(perDay, description: "Delivery per day", named: [document.scenario], suffix: "-delivery.svg")
  }

  /// A share of replications with its 95% interval: "12.5% (5.4% to 26.2%)".
  static func share(_ share: Share) -> String {
    NumberFormat.percent(share.rate, decimals: 1)
      + (share.lower.map { lower in
        " (\(NumberFormat.percent(lower, decimals: 1)) to \(NumberFormat.percent(share.upper, decimals: 1)))"
      } ?? "")
  }
}
