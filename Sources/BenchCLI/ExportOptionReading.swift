import AnalyticsTable
import ArgumentParser
import Foundation

/// The export options `bench analyze` and `bench fit` share, read once:
/// `--map FILE.json` and the time options, each refused by its name.
enum ExportOptionReading {
  /// The mapping a `--map` file describes.
  static func mapping(file: String) throws -> ExportMapping {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw ValidationError("--map \(file): cannot be read: name a JSON file that describes the export (docs/analyze.md).")
    }
    do {
      return try ExportMapping(json: [UInt8](data), path: file)
    } catch {
      throw ValidationError("--map \(error.description)")
    }
  }

  /// `--time` (or `format` without it), `--timezone` and `--start`.
  static func eventTime(time: String?, format standard: EventTime.Format, timezone: String, start: String?) throws -> EventTime {
    let text = time ?? standard.rawValue
    guard let format = EventTime.Format(rawValue: text) else {
      throw ValidationError("--time takes \(EventTime.Format.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'.")
    }
    guard let zone = TimeZone(identifier: timezone) else {
      throw ValidationError("--timezone takes a zone such as UTC or Europe/Berlin, not '\(timezone)'.")
    }
    let startDay = try start.map { text in
      guard let day = EventTime.parseDate(text) else { throw ValidationError("--start takes a date as YYYY-MM-DD, not '\(text)'.") }
      return day
    }
    return EventTime(format: format, timeZone: zone, start: startDay)
  }
}
