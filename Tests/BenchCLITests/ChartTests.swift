import Foundation
import Testing

@testable import Report

/// Charts that say exactly what they show: intervals as bands, the truth as
/// a dashed line, a marker wherever a value leaves the axis, and no chart of
/// nothing.
@Suite struct ChartTests {
  private func chart(values: [Double?], lower: [Double?], upper: [Double?], extent: [Double]? = nil) -> String {
    LineChart(
      title: "t", xLabel: "day", yLabel: "lift", xValues: Array(0..<values.count),
      series: [
        LineChart.Series(name: "B", values: values, colour: 0, band: (lower, upper)),
        LineChart.Series(name: "B true lift", values: values.map { _ in 0.1 }, dashed: true, colour: 0),
      ],
      yExtent: extent
    ).svg
  }

  @Test func anIntervalIsABandAndTheTruthADashedLine() {
    let svg = chart(values: [0.1, 0.12, 0.11], lower: [0.0, 0.05, 0.06], upper: [0.2, 0.19, 0.16])
    #expect(svg.components(separatedBy: "<polygon clip-path=\"url(#plot)\" fill=\"#0072B2\" fill-opacity=\"0.15\"").count == 2)
    #expect(svg.contains("stroke-dasharray=\"5 4\""))
    #expect(svg.contains(">B true lift</text>"))
    #expect(!svg.contains("beyond the axis"))
  }

  /// An axis scaled to the settled days clips the early intervals: each run
  /// of clipped points gets one marker at the edge, and the legend says so.
  @Test func clippedValuesAreMarked() {
    let svg = chart(
      values: [0.5, 0.1, 0.1, 0.1], lower: [-3, -2, 0.05, 0.05], upper: [4, 0.3, 0.2, 0.15], extent: [0, 0.3])
    let markers = svg.components(separatedBy: "<polygon fill=").count - 1
    // The upper bound's first point, the lower bound's first two (one run), the value's first point.
    #expect(markers == 3)
    #expect(svg.contains(">▲▼ beyond the axis</text>"))
  }

  @Test func aRunWithoutDeliveryOrOfOneDayHasNoSuchChart() throws {
    let out = try temporaryFolder()
    #expect(try BenchProcess.run([committedScenario("apptimize-check-dilution"), "--devices", "500", "--replications", "1", "--out", out.path, "--quiet"]).status == 0)
    let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("apptimize-check-dilution").path)
    #expect(!files.contains { $0.hasSuffix("-delivery.svg") })
    #expect(try BenchProcess.run([committedScenario("true-effect"), "--devices", "500", "--replications", "1", "--out", out.path, "--quiet"]).status == 0)
    let oneDay = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("true-effect").path)
    #expect(oneDay.sorted() == ["report.md", "results.json"])
  }
}
