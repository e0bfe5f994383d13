import AnalyticsTable
import Foundation
import ScenarioFormat
import Testing

@testable import WorldFit

/// What the fit reads of the stores and of an export's edges (docs/world.md,
/// "How the fit works"): Google Play's stages from the new Android devices,
/// and the first or last day an export was cut during.
@Suite struct FitStoresTests {
  /// An Amplitude-shaped export of `rows`: (device, day from 2026-01-05, version, platform).
  private func activity(_ rows: [(String, Int, String, String)]) throws -> ExportActivity {
    let lines = rows.map { device, day, version, platform in
      let date = String(format: "2026-01-%02d", 5 + day)
      return #"{"event_type": "session_start", "amplitude_id": "\#(device)", "event_time": "\#(date)T08:00:00.000Z", "version_name": "\#(version)", "platform": "\#(platform)"}"#
    }
    let file = try BenchProcess.temporaryFile(lines.joined(separator: "\n") + "\n")
    return try ExportActivity(
      path: file, mapping: try #require(ExportPreset.amplitude.mapping), time: EventTime(format: .iso8601),
      sessionEvent: nil, dayLimit: 3_660)
  }

  /// Release 2.0 on day 5 of 15. Ten new Android devices a day: 4, 2 and 3
  /// of them on 2.0 on days 5 to 7, all ten from day 8. On day 9 ten older
  /// devices are first seen too, half of them on 2.0 as the curve says four
  /// days after the release. iOS devices, on 2.0 or not, say nothing of Play.
  @Test func playsStagesAreTheNewAndroidDevicesShareNeverFalling() throws {
    var rows: [(String, Int, String, String)] = [("old", 0, "1.0", "Android")]
    for day in 5..<15 {
      let onRelease = [5: 4, 6: 2, 7: 3][day] ?? 10
      for device in 0..<10 { rows.append(("new-\(day)-\(device)", day, device < onRelease ? "2.0" : "1.0", "Android")) }
      rows.append(("ios-\(day)", day, "1.0", "iOS"))
    }
    for device in 0..<10 { rows.append(("late-\(device)", 9, device < 5 ? "2.0" : "1.0", "Android")) }
    let export = try activity(rows)
    #expect(export.days == 15)
    let (releases, _, ranks) = FittedWorld.releases(of: export)
    #expect(releases.map(\.version) == ["1.0", "2.0"] && releases[1].releaseDay == 5)
    let curve = [AdoptionPoint(day: 4, share: 0.5), AdoptionPoint(day: 8, share: 1)]
    let withCurve = [releases[0], FittedWorld.Release(version: "2.0", releaseDay: 5, curve: curve)]
    let newDevices = (0..<15).map { $0 >= 5 ? 10.0 : 0 }
    let stages = FittedWorld.playStages(of: 1, releases: withCurve, ranks: ranks, activity: export, newDevices: newDevices)
    // Days 5 to 7 pooled, as day 6 falls below day 5: (4 + 2 + 3) / 30. Day 9's
    // 20 devices first seen are the 10 new ones and 10 older ones, of which the
    // curve puts half on 2.0: (15 − 5) / 10 = 1.
    #expect(stages.map(\.day) == [5, 8])
    #expect(zip(stages.map(\.share), [0.3, 1]).allSatisfy { abs($0 - $1) < 1e-12 }, "\(stages)")
  }

  /// A release Play served to every new device from its day gets no stages.
  @Test func aReleaseServedToEveryoneHasNoStages() throws {
    var rows: [(String, Int, String, String)] = [("old", 0, "1.0", "Android")]
    for day in 3..<10 { rows.append(("new-\(day)", day, "2.0", "Android")) }
    let export = try activity(rows)
    let (releases, _, ranks) = FittedWorld.releases(of: export)
    let stages = FittedWorld.playStages(
      of: 1, releases: releases, ranks: ranks, activity: export, newDevices: (0..<10).map { $0 >= 3 ? 1 : 0 })
    #expect(stages.isEmpty)
  }

  /// Amplitude's newer SDKs name the session event "[Amplitude] Start Session":
  /// read with the preset, such rows are sessions as "session_start" rows are,
  /// and a named `--session-event` counts that event only.
  @Test func amplitudesNewerSessionEventIsASession() throws {
    let lines = [
      #"{"event_type": "[Amplitude] Start Session", "amplitude_id": "d1", "event_time": "2026-01-05T08:00:00.000Z"}"#,
      #"{"event_type": "session_start", "amplitude_id": "d1", "event_time": "2026-01-05T09:00:00.000Z"}"#,
      #"{"event_type": "[Amplitude] Start Session", "amplitude_id": "d1", "event_time": "2026-01-05T10:00:00.000Z"}"#,
      #"{"event_type": "screen_view", "amplitude_id": "d1", "event_time": "2026-01-06T10:00:00.000Z"}"#,
    ]
    let file = try BenchProcess.temporaryFile(lines.joined(separator: "\n") + "\n")
    let mapping = try #require(ExportPreset.amplitude.mapping)
    let preset = try ExportActivity(path: file, mapping: mapping, time: EventTime(format: .iso8601), sessionEvent: nil, dayLimit: 3_660)
    #expect(preset.hasSessions && preset.devices.map(\.sessions) == [[3, 0]])
    let named = try ExportActivity(
      path: file, mapping: mapping, time: EventTime(format: .iso8601), sessionEvent: "session_start", dayLimit: 3_660)
    #expect(named.devices.map(\.sessions) == [[1, 0]])
  }

  /// A first or last day under half the mean of the seven beside it is left
  /// out; exactly half is kept; an export under 9 days is kept whole.
  @Test func daysCutShortAreLeftOut() {
    let week = [Int](repeating: 100, count: 8)
    #expect(FittedWorld.completeDays(active: week + [1]) == 0..<8)
    #expect(FittedWorld.completeDays(active: [49] + week) == 1..<9)
    #expect(FittedWorld.completeDays(active: [50] + week + [50]) == 0..<10)
    #expect(FittedWorld.completeDays(active: [3] + week + [3]) == 1..<9)
    #expect(FittedWorld.completeDays(active: [1] + [Int](repeating: 100, count: 6) + [1]) == 0..<8)
  }

  /// `bench fit` on an export that ends an hour into its last day: the day
  /// is left out of the world and the report says why.
  @Test func theFitReportNamesTheDayItLeftOut() throws {
    var rows: [(String, Int, String, String)] = []
    for device in 0..<40 {
      for day in 0..<10 where (device + day) % 3 != 0 { rows.append(("d\(device)", day, "1.0", "iOS")) }
    }
    rows.append(("d0", 10, "1.0", "iOS"))
    let lines = rows.map { device, day, version, platform in
      #"{"event_type": "session_start", "amplitude_id": "\#(device)", "event_time": "\#(String(format: "2026-01-%02d", 5 + day))T00:30:00.000Z", "version_name": "\#(version)", "platform": "\#(platform)"}"#
    }
    let folder = try temporaryFolder()
    let export = folder.appendingPathComponent("export.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: export, atomically: true, encoding: .utf8)
    let world = folder.appendingPathComponent("world.json").path
    let result = try BenchProcess.run(["fit", export, "--preset", "amplitude", "--out", world, "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try Scenario.load(path: world).scenario.days == 10)
    let report = try String(contentsOfFile: folder.appendingPathComponent("world-fit.md").path, encoding: .utf8)
    // Days 3 to 9 hold 26, 27, 27, 26, 27, 27 and 26 active devices: 186 / 7, 26.6 to three digits.
    #expect(report.contains(
      "Left out 2026-01-15: 1 active device against 26.6 a day in the week before, so the export ended during it;"), "\(report)")
  }
}
