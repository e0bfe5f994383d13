import Foundation
import Results

/// A line chart as a self-contained SVG file, which GitHub shows next to the
/// report with no extra tools. Every number in the file is written with a
/// fixed number of decimals, so the same data give the same bytes. Public for
/// the other Markdown pages the bench writes beside a file (`bench fit`'s).
public struct LineChart {
  public struct Series {
    let name: String
    let values: [Double?]
    /// Drawn dashed, for interval bounds and secondary lines.
    var dashed = false
    /// The colour's index in the palette; series that belong together share one.
    let colour: Int
    /// An interval around the values, drawn as a shaded band.
    var band: (lower: [Double?], upper: [Double?])?
  }

  let title: String
  let xLabel: String
  let yLabel: String
  let xValues: [Int]
  let series: [Series]
  /// A horizontal reference line, e.g. 0 for lifts or alpha for p-values.
  var reference: (value: Double, label: String)?
  /// The y values the axis must show; by default every plotted value, bands included.
  var yExtent: [Double]?
  /// Formats the y axis's tick labels.
  var formatY: (Double) -> String = { LineChart.trim($0, decimals: 2) }

  /// Okabe and Ito's colour-blind-safe palette (2008), black last: a
  /// variant's index in its experiment picks its colour in every chart.
  static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
  /// GitHub's Markdown column is 980 pixels wide; a chart fills it.
  private let width = 960.0, height = 400.0
  private let left = 70.0, right = 170.0, top = 40.0, bottom = 50.0

  public var svg: String {
    let everything = series.flatMap { line in
      (line.values + (line.band.map { $0.lower + $0.upper } ?? [])).compactMap { $0 }
    }
    let plotted = (yExtent ?? everything) + (reference.map { [$0.value] } ?? [])
    let (low, high) = Self.niceRange(plotted.min() ?? 0, plotted.max() ?? 1)
    let xLow = Double(xValues.first ?? 0), xHigh = Double(max(xValues.last ?? 1, (xValues.first ?? 0) + 1))
    let plotWidth = width - left - right, plotHeight = height - top - bottom
    func x(_ value: Double) -> Double { left + (value - xLow) / (xHigh - xLow) * plotWidth }
    func y(_ value: Double) -> Double { top + (high - value) / (high - low) * plotHeight }

    var out = [
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.fixed(width))\" height=\"\(Self.fixed(height))\" viewBox=\"0 0 \(Self.fixed(width)) \(Self.fixed(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">",
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
      "<clipPath id=\"plot\"><rect x=\"\(Self.fixed(left))\" y=\"\(Self.fixed(top))\" width=\"\(Self.fixed(plotWidth))\" height=\"\(Self.fixed(plotHeight))\"/></clipPath>",
      "<text x=\"\(Self.fixed(left))\" y=\"22\" font-size=\"14\" font-weight=\"bold\">\(XMLText.escape(title))</text>",
    ]
    for tick in Self.ticks(low, high) {
      out.append("<line x1=\"\(Self.fixed(left))\" y1=\"\(Self.fixed(y(tick)))\" x2=\"\(Self.fixed(left + plotWidth))\" y2=\"\(Self.fixed(y(tick)))\" stroke=\"#e5e5e5\"/>")
      out.append("<text x=\"\(Self.fixed(left - 6))\" y=\"\(Self.fixed(y(tick) + 4))\" text-anchor=\"end\">\(XMLText.escape(formatY(tick)))</text>")
    }
    for tick in Self.ticks(xLow, xHigh, count: 6) where tick == tick.rounded() {
      out.append("<text x=\"\(Self.fixed(x(tick)))\" y=\"\(Self.fixed(top + plotHeight + 18))\" text-anchor=\"middle\">\(Int(tick))</text>")
    }
    out.append("<line x1=\"\(Self.fixed(left))\" y1=\"\(Self.fixed(top + plotHeight))\" x2=\"\(Self.fixed(left + plotWidth))\" y2=\"\(Self.fixed(top + plotHeight))\" stroke=\"#333\"/>")
    out.append("<line x1=\"\(Self.fixed(left))\" y1=\"\(Self.fixed(top))\" x2=\"\(Self.fixed(left))\" y2=\"\(Self.fixed(top + plotHeight))\" stroke=\"#333\"/>")
    out.append("<text x=\"\(Self.fixed(left + plotWidth / 2))\" y=\"\(Self.fixed(height - 12))\" text-anchor=\"middle\">\(XMLText.escape(xLabel))</text>")
    out.append("<text transform=\"translate(16 \(Self.fixed(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(XMLText.escape(yLabel))</text>")
    if let reference {
      out.append("<line x1=\"\(Self.fixed(left))\" y1=\"\(Self.fixed(y(reference.value)))\" x2=\"\(Self.fixed(left + plotWidth))\" y2=\"\(Self.fixed(y(reference.value)))\" stroke=\"#555\" stroke-dasharray=\"2 3\"/>")
      out.append("<text x=\"\(Self.fixed(left + plotWidth + 4))\" y=\"\(Self.fixed(y(reference.value) + 4))\" fill=\"#555\">\(XMLText.escape(reference.label))</text>")
    }
    for line in series {
      let colour = Self.palette[line.colour % Self.palette.count]
      guard let band = line.band else { continue }
      let both = zip(band.lower, band.upper).map { lower, upper in lower.flatMap { lower in upper.map { _ in lower } } }
      for segment in Self.segments(both) {
        let upper = segment.map { "\(Self.fixed(x(Double(xValues[$0])))),\(Self.fixed(y(band.upper[$0]!)))" }
        let lower = segment.reversed().map { "\(Self.fixed(x(Double(xValues[$0])))),\(Self.fixed(y(band.lower[$0]!)))" }
        out.append("<polygon clip-path=\"url(#plot)\" fill=\"\(colour)\" fill-opacity=\"0.15\" stroke=\"none\" points=\"\((upper + lower).joined(separator: " "))\"/>")
      }
    }
    var clipped = false
    for line in series {
      let colour = Self.palette[line.colour % Self.palette.count]
      // A marker at the edge where a line or its band leaves the axis, so that clipping never hides a value.
      for values in [line.values] + (line.band.map { [$0.lower, $0.upper] } ?? []) {
        var previous: Int?
        for (index, value) in values.enumerated() {
          guard let value else { previous = nil; continue }
          let side: Int? = value > high ? 1 : value < low ? -1 : nil
          defer { previous = side }
          guard let side, side != previous else { continue }
          clipped = true
          let tipX = x(Double(xValues[index])), edge = side > 0 ? top : top + plotHeight
          let base = edge + Double(side) * -7
          out.append("<polygon fill=\"\(colour)\" points=\"\(Self.fixed(tipX - 4)),\(Self.fixed(base)) \(Self.fixed(tipX + 4)),\(Self.fixed(base)) \(Self.fixed(tipX)),\(Self.fixed(edge))\"/>")
        }
      }
      for segment in Self.segments(line.values) {
        let points = segment.map { "\(Self.fixed(x(Double(xValues[$0])))),\(Self.fixed(y(line.values[$0]!)))" }
          .joined(separator: " ")
        out.append("<polyline clip-path=\"url(#plot)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(line.dashed ? "1" : "2")\"\(line.dashed ? " stroke-dasharray=\"5 4\"" : "") points=\"\(points)\"/>")
      }
    }
    var legendY = top + 6
    for line in series where !line.name.isEmpty {
      let colour = Self.palette[line.colour % Self.palette.count]
      let legendX = left + plotWidth + 12
      out.append("<line x1=\"\(Self.fixed(legendX))\" y1=\"\(Self.fixed(legendY))\" x2=\"\(Self.fixed(legendX + 18))\" y2=\"\(Self.fixed(legendY))\" stroke=\"\(colour)\" stroke-width=\"2\"\(line.dashed ? " stroke-dasharray=\"5 4\"" : "")/>")
      out.append("<text x=\"\(Self.fixed(legendX + 24))\" y=\"\(Self.fixed(legendY + 4))\">\(XMLText.escape(line.name))</text>")
      legendY += 18
    }
    if clipped {
      out.append("<text x=\"\(Self.fixed(left + plotWidth + 12))\" y=\"\(Self.fixed(legendY + 4))\" fill=\"#555\">▲▼ beyond the axis</text>")
    }
    out.append("</svg>")
    return out.joined(separator: "\n") + "\n"
  }

  /// Runs of consecutive indexes whose values are present.
  private static func segments(_ values: [Double?]) -> [[Int]] {
    var runs: [[Int]] = [], current: [Int] = []
    for (index, value) in values.enumerated() {
      if value != nil {
        current.append(index)
      } else if !current.isEmpty {
        runs.append(current)
        current = []
      }
    }
    if !current.isEmpty { runs.append(current) }
    return runs
  }

  /// An axis range that starts and ends on round numbers and is never empty.
  static func niceRange(_ low: Double, _ high: Double) -> (Double, Double) {
    var low = low, high = high
    if low == high {
      low -= max(abs(low) * 0.1, 1)
      high += max(abs(high) * 0.1, 1)
    }
    let step = niceStep((high - low) / 5)
    return ((low / step).rounded(.down) * step, (high / step).rounded(.up) * step)
  }

  static func niceStep(_ raw: Double) -> Double {
    let magnitude = pow(10, (log10(raw)).rounded(.down))
    let fraction = raw / magnitude
    let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
    return nice * magnitude
  }

  static func ticks(_ low: Double, _ high: Double, count: Int = 5) -> [Double] {
    let step = niceStep((high - low) / Double(count))
    var ticks: [Double] = []
    var tick = (low / step).rounded(.up) * step
    while tick <= high + step * 1e-9 {
      ticks.append(abs(tick) < step * 1e-9 ? 0 : tick)
      tick += step
    }
    return ticks
  }

  static func fixed(_ value: Double) -> String {
    String(format: "%.1f", value)
  }

  /// A number with at most `decimals` decimals and no trailing zeros.
  static func trim(_ value: Double, decimals: Int) -> String {
    var text = String(format: "%.\(decimals)f", value)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
  }
}

// Factories rather than initializers, which would clash with the memberwise
// ones the report's writers use.
extension LineChart {
  /// A chart of `series` over `xValues`, its y axis's labels by `formatY`.
  public static func of(
    _ series: [Series], title: String, xLabel: String, yLabel: String, xValues: [Int], formatY: @escaping (Double) -> String
  ) -> LineChart {
    LineChart(title: title, xLabel: xLabel, yLabel: yLabel, xValues: xValues, series: series, formatY: formatY)
  }
}

extension LineChart.Series {
  /// A line of `values`, in the palette's colour `colour`, dashed or not.
  public static func line(_ name: String, _ values: [Double?], colour: Int, dashed: Bool = false) -> LineChart.Series {
    LineChart.Series(name: name, values: values, dashed: dashed, colour: colour)
  }
}
