import AnalyticsTable
import Foundation
import Testing
@testable import WorldFit

/// What an export's own values can make the fit do is bounded: a platform
/// column of many values gives at most eight segments, the smallest merged.
@Suite struct FitSegmentTests {
  @Test func manyPlatformsAreFittedAsEightSegments() throws {
    var lines = ""
    for device in 0..<120 {
      // Platform k has k + 1 devices (k from 0 to 14), so the ranking is fixed.
      let platform = (0..<15).first { k in device < (k + 1) * (k + 2) / 2 } ?? 14
      lines += #"{"event_type": "session_start", "amplitude_id": "d\#(device)", "event_time": "2026-01-05T08:00:00.000Z", "platform": "P\#(platform)"}"#
      lines += "\n"
    }
    let file = try BenchProcess.temporaryFile(lines)
    let activity = try ExportActivity(
      path: file, mapping: try #require(ExportPreset.amplitude.mapping), time: EventTime(format: .iso8601), sessionEvent: nil,
      dayLimit: 3_660)
    let segments = ObservedSegment.segments(of: activity)
    #expect(segments.count == ObservedSegment.mostPlatforms)
    // The seven largest, P14 (15 devices) down to P8 (9), then the other eight platforms' 36 devices.
    #expect(segments.map(\.name) == ["other", "P14", "P13", "P12", "P11", "P10", "P9", "P8"])
    #expect(segments.map(\.devices) == [36, 15, 14, 13, 12, 11, 10, 9])
  }

  @Test func aDayIsFoundInADevicesDays() {
    #expect(FittedWorld.index(of: 7, in: [0, 3, 7, 9]) == 2)
    #expect(FittedWorld.index(of: 8, in: [0, 3, 7, 9]) == nil)
    #expect(FittedWorld.index(of: 0, in: []) == nil)
  }
}
