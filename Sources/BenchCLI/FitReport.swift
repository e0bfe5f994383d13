import AnalyticsTable
import Foundation
import Report
import ScenarioFormat
import WorldFit

/// `bench fit`'s report: what the export shows beside what the fitted world
/// expects, day by day, and how far apart they are, with its charts.
struct FitReport {
  let world: FittedWorld
  let activity: ExportActivity
  let export: String
  let startDay: Int
  let partialDays: PartialDays
  /// The report's name without its extension (`world-fit` beside `world.json`):
  /// its charts are named after it.
  let name: String

  /// The charts the report shows, as SVG files beside it: the active devices
  /// and the devices first seen (export against fit), each version's share
  /// by day, and day 0's devices coming back, per platform.
  var charts: [(file: String, title: String, chart: LineChart)] {
    let days = Array(0..<activity.days)
    func sum(_ values: (FittedWorld.Segment) -> [Double]) -> [Double?] {
      days.map { day in world.segments.reduce(0) { $0 + values($1)[day] } }
    }
    let count: (Double) -> String = { NumberFormat.count(Int($0.rounded())) }
    func chart(_ suffix: String, _ title: String, _ series: [LineChart.Series], yLabel: String, formatY: @escaping (Double) -> String)
      -> (file: String, title: String, chart: LineChart)
    {
      (ChartFileName.make([name], suffix: suffix), title,
       LineChart.of(series, title: title, xLabel: "day", yLabel: yLabel, xValues: days, formatY: formatY))
    }
    var charts = [chart(
      "-active.svg", "Devices a day: the export and the fitted world",
      [
        .line("active, export", sum { $0.observed.active }, colour: 0),
        .line("active, fit", sum { $0.activity.expectedActive }, colour: 0, dashed: true),
        .line("first seen, export", sum { $0.observed.firstSeen }, colour: 1),
        .line("new, fit", world.newDevices, colour: 1, dashed: true),
      ], yLabel: "devices", formatY: count)]
    if world.releases.count > 1 {
      charts.append(chart(
        "-versions.svg", "Each version's share of the day's active devices, in the export",
        world.releases.enumerated().map { index, release in .line(release.version, world.versionShares.map { $0[index] }, colour: index) },
        yLabel: "share", formatY: { Self.percent($0) }))
    }
    let returns = world.segments.enumerated().flatMap { index, segment -> [LineChart.Series] in
      let cohort = max(segment.observed.firstSeen.first ?? 0, 1)
      return [
        .line("\(segment.observed.name), export", days.map { $0 == 0 ? nil : segment.observed.cohortActive[$0] / cohort }, colour: index),
        .line("\(segment.observed.name), fit", days.map { $0 == 0 || $0 > segment.activity.expectedReturns.count ? nil : segment.activity.expectedReturns[$0 - 1] },
          colour: index, dashed: true),
      ]
    }
    charts.append(chart(
      "-returns.svg", "Day 0's devices active again, by day", returns, yLabel: "share of day 0's devices", formatY: { Self.percent($0) }))
    return charts
  }

  /// The export's first or last day, left out as cut short
  /// (`FittedWorld.completeDays`), with their active devices and those of
  /// the week beside them.
  struct PartialDays {
    var sentences: [String] = []

    init(read: ExportActivity, complete: Range<Int>, startDay: Int) {
      let active = read.activeByDay
      func week(_ range: Range<Int>) -> Double { Double(active[range].reduce(0, +)) / Double(range.count) }
      if complete.lowerBound == 1 {
        sentences.append(Self.sentence(
          day: FitReport.date(startDay - 1), active: active[0], week: week(1..<8), when: "began", which: "after"))
      }
      if complete.upperBound < read.days {
        sentences.append(Self.sentence(
          day: FitReport.date(startDay + complete.count), active: active[read.days - 1],
          week: week((read.days - 8)..<(read.days - 1)), when: "ended", which: "before"))
      }
    }

    private static func sentence(day: String, active: Int, week: Double, when: String, which: String) -> String {
      "Left out \(day): \(CountText.grouped(active)) active device\(active == 1 ? "" : "s") against \(FitReport.number(week)) a day "
        + "in the week \(which), so the export \(when) during it; fitted as a whole day it would read as "
        + (when == "ended" ? "devices stopping for good." : "devices installed since.")
    }
  }

  var markdown: String {
    var lines = ["# The world fitted from \(Self.text(URL(fileURLWithPath: export).lastPathComponent))", ""]
    let date = Self.date(startDay)
    lines.append(
      "\(CountText.grouped(activity.devices.count)) devices over \(activity.days) days from \(date) (a \(world.firstWeekday.rawValue.capitalized)); "
        + (activity.hasSessions ? "sessions counted by their event" : "no session event: an active day counts as one session")
        + (activity.hasVersions ? "; app versions read" : "; no app version: the world has one version")
        + (activity.hasPlatforms ? "; a segment per platform." : "; no platform: one segment."))
    if !activity.skipped.isEmpty { lines.append("\(activity.skipped.count) malformed rows were left out.") }
    for sentence in partialDays.sentences { lines += ["", sentence] }
    lines += ["", "## Installs", ""]
    let installs = world.installs
    lines.append(
      "\(Self.number(installs.existing)) devices installed before day 0, \(Self.number(installs.daily)) new ones a day"
        + installs.campaigns.map { ", \(Self.number($0.daily)) more a day on days \($0.day) to \($0.day + $0.days - 1)" }.joined()
        + ": \(Self.number(world.totalDevices)) devices in all.")
    lines += ["", "## Activity", "", "| segment | share | mean daily activity | concentration | hazard | first week's hazard | sessions per active day | active devices, fit error |",
      "|---|---|---|---|---|---|---|---|"]
    for segment in world.segments {
      let error = Self.relativeError(observed: segment.observed.active, expected: segment.activity.expectedActive)
      lines.append(
        "| \(Self.text(segment.observed.name)) | \(Self.percent(segment.share)) | \(Self.number(segment.activity.mean)) | "
          + "\(Self.number(segment.activity.concentration)) | \(Self.number(segment.activity.hazard)) | "
          + "\(segment.observed.lastNewCohortDay >= 1 ? Self.number(segment.activity.firstWeekHazard) : "–") | "
          + "\(Self.number(segment.sessionsPerActiveDay)) | \(Self.percent(error)) |")
    }
    lines += ["", "The fit error is the root mean square of the daily differences over the mean of the active devices.", ""]
    lines += ["## Day by day", ""]
    lines += charts.map { "![\($0.title)](\($0.file))" }
    lines += ["", "| day | active (export) | active (fit) | first seen (export) | new (fit) |" + String(repeating: " version share |", count: world.releases.count > 1 ? 1 : 0),
      "|---|---|---|---|---|" + (world.releases.count > 1 ? "---|" : "")]
    for day in Self.shownDays(activity.days) {
      let observed = world.segments.reduce(0) { $0 + $1.observed.active[day] }
      let expected = world.segments.reduce(0) { $0 + $1.activity.expectedActive[day] }
      let seen = world.segments.reduce(0) { $0 + $1.observed.firstSeen[day] }
      var row = "| \(day) | \(Self.number(observed)) | \(Self.number(expected)) | \(Self.number(seen)) | \(Self.number(world.newDevices[day])) |"
      if world.releases.count > 1 {
        row += " " + zip(world.releases, world.versionShares[day]).map { "\(Self.text($0.version)) \(Self.percent($1))" }.joined(separator: ", ") + " |"
      }
      lines.append(row)
    }
    if world.releases.count > 1 {
      lines += ["", "## Releases", "",
        "| version | released on day | updated by day since release | Google Play's stages (new Android devices) |", "|---|---|---|---|"]
      for release in world.releases.dropFirst() {
        lines.append("| \(Self.text(release.version)) | \(release.releaseDay) | "
          + release.curve.map { "\(Self.number($0.day)): \(Self.percent($0.share))" }.joined(separator: ", ") + " | "
          + (release.playStages.isEmpty ? "none" : release.playStages.map { "day \($0.day): \(Self.percent($0.share))" }.joined(separator: ", "))
          + " |")
      }
    }
    if !world.metrics.isEmpty {
      lines += ["", "## Metrics", "", "What a device shown only baselines has over the export, by platform (a scenario's `baseline` and `segmentBaselines`).", "",
        "| metric | kind | all devices | " + world.segments.map { Self.text($0.observed.name) }.joined(separator: " | ") + " |",
        "|---|---|---|" + String(repeating: "---|", count: world.segments.count)]
      for metric in world.metrics {
        let kind = metric.shape.map { "amount, gamma of shape \(Self.number($0))" } ?? "conversion"
        let value: (Double) -> String = { metric.isConversion ? Self.percent($0) : Self.number($0) }
        lines.append("| \(metric.name) | \(kind) | \(value(metric.baseline)) | " + metric.segmentBaselines.map(value).joined(separator: " | ") + " |")
      }
    }
    if let factors = world.weekdayFactors {
      lines += ["", "## Weekdays", "", "Monday to Sunday: " + factors.map(Self.number).joined(separator: ", ") + "."]
    }
    lines += ["", "## What the fit cannot see", "",
      "- Devices that install the app and never open it: an install is a first event.",
      "- A rollout's own steps: a release's curve is the adoption it caused, stores included; Google Play's stages are read off the new Android devices only.",
      "- Versions that were spreading before day 0: every device starts on the version most ran on day 0.",
      "- Releases' curves per platform: the scenario takes one curve per release, over every platform.", ""]
    return lines.joined(separator: "\n")
  }

  /// A name from the export as plain Markdown text: its markup characters
  /// escaped and its line breaks made spaces, so that it never becomes markup
  /// or breaks a table.
  static func text(_ name: String) -> String {
    var result = ""
    for character in name {
      if character.isNewline {
        result.append(" ")
      } else {
        if "\\`*_[]<>|#!~".contains(character) { result.append("\\") }
        result.append(character)
      }
    }
    return result
  }

  /// Days 0 to 13, then every 7th, and the last.
  static func shownDays(_ days: Int) -> [Int] {
    Array(Set((0..<min(days, 14)).map { $0 } + stride(from: 14, to: days, by: 7).map { $0 } + [days - 1])).sorted()
  }

  static func relativeError(observed: [Double], expected: [Double]) -> Double {
    let squares = zip(observed, expected).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
    let mean = observed.reduce(0, +) / Double(max(observed.count, 1))
    return mean > 0 ? (squares / Double(max(observed.count, 1))).squareRoot() / mean : 0
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    if abs(value) >= 100 { return CountText.grouped(Int(value.rounded())) }
    return String(format: "%.3g", value)
  }

  static func percent(_ share: Double) -> String { String(format: "%.1f%%", share * 100) }

  static func date(_ day: Int) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }
}
