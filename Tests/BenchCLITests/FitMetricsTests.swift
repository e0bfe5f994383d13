import Foundation
import ScenarioFormat
import Testing

/// `bench fit --metric`: a metric's baselines per platform read off the
/// export (docs/world.md, "Fitting the world from an export").
@Suite struct FitMetricsTests {
  /// Ten iOS devices, four of which buy (one twice: 5 and 3; then 2, 10 and
  /// 4), and five Android devices, one of which buys for 10; every device has
  /// a session a day for 10 days.
  private func export() throws -> (folder: URL, path: String) {
    var lines: [String] = []
    let purchases: [String: [Double]] = ["i0": [5, 3], "i1": [2], "i2": [10], "i3": [4], "a0": [10]]
    let devices = (0..<10).map { ("i\($0)", "iOS") } + (0..<5).map { ("a\($0)", "Android") }
    for (device, platform) in devices {
      for day in 0..<10 {
        let date = String(format: "2026-01-%02d", 5 + day)
        lines.append(#"{"event_type": "session_start", "amplitude_id": "\#(device)", "event_time": "\#(date)T08:00:00.000Z", "version_name": "1.0", "platform": "\#(platform)"}"#)
      }
      for price in purchases[device] ?? [] {
        lines.append(#"{"event_type": "purchase", "amplitude_id": "\#(device)", "event_time": "2026-01-07T09:00:00.000Z", "platform": "\#(platform)", "event_properties": {"price": \#(price)}}"#)
      }
    }
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("export.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return (folder, path)
  }

  /// purchased: 5 of 15 devices, 4 of 10 on iOS, 1 of 5 on Android. revenue:
  /// 34 over 15 devices, 24 over iOS's 10, 10 over Android's 5; the gamma's
  /// shape is mean² / variance over all 15: (34/15)² / ((284 − 34²/15) / 14).
  @Test func baselinesPerPlatformAreTheExportsShares() throws {
    let (folder, path) = try export()
    let world = folder.appendingPathComponent("world.json").path
    let result = try BenchProcess.run([
      "fit", path, "--preset", "amplitude", "--metric", "purchased=purchase", "--metric", "revenue=purchase:price", "--out", world,
      "--quiet",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let scenario = try Scenario.load(path: world).scenario
    let purchased = try #require(scenario.metrics.first { $0.name == "purchased" })
    #expect(purchased.kind == .conversion && purchased.baseline == 0.3333)
    #expect(purchased.segmentBaselines == ["ios": 0.4, "android": 0.2])
    let revenue = try #require(scenario.metrics.first { $0.name == "revenue" })
    let shape = (34.0 / 15) * (34.0 / 15) / ((284 - 34.0 * 34 / 15) / 14)
    #expect(revenue.kind == .continuous(.gamma(shape: (shape * 10_000).rounded() / 10_000)), "\(revenue.kind) against \(shape)")
    #expect(revenue.baseline == 2.267 && revenue.segmentBaselines == ["ios": 2.4, "android": 2])
    let report = try String(contentsOfFile: folder.appendingPathComponent("world-fit.md").path, encoding: .utf8)
    #expect(report.contains("| purchased | conversion | 33.3% | 40.0% | 20.0% |"), "\(report)")
  }

  @Test func aMetricTheExportCannotGiveIsRefused() throws {
    let (folder, path) = try export()
    let world = folder.appendingPathComponent("world.json").path
    for (metric, message) in [
      ("purchased=Purchase", "--metric purchased=Purchase: no row of the export is a 'Purchase' event; check the event's name (names are case-sensitive)."),
      ("Revenue=purchase:price", "--metric Revenue: a metric's name is lowerCamelCase, as a scenario's is, e.g. purchased or revenue."),
      ("revenue=", "--metric takes NAME=EVENT or NAME=EVENT:PROPERTY, not 'revenue='."),
    ] {
      let result = try BenchProcess.run(["fit", path, "--preset", "amplitude", "--metric", metric, "--out", world])
      #expect(result.status != 0 && result.standardError.contains(message), "\(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: world))
    }
  }
}
