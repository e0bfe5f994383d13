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

  /// `--metric NAME=EVENT[:PROPERTY]` (or another option's of that form),
  /// each name once.
  static func eventMetrics(_ texts: [String], option: String) throws -> [EventsAnalysis.EventMetric] {
    var metrics: [EventsAnalysis.EventMetric] = []
    for text in texts {
      guard let (name, definition) = Bench.Analyze.pair(text) else {
        throw ValidationError("\(option) takes NAME=EVENT or NAME=EVENT:PROPERTY, not '\(text)'.")
      }
      // An event's name may hold ':' (statsig::…); the property follows the last one.
      let colon = definition.lastIndex(of: ":")
      if colon == definition.startIndex {
        throw ValidationError("\(option) \(text): the event's name is empty; give NAME=EVENT:PROPERTY, e.g. revenue=purchase:price.")
      }
      let isProperty = colon.map { definition[definition.index(before: $0)] != ":" && definition.index(after: $0) != definition.endIndex } ?? false
      let event = isProperty ? String(definition[..<colon!]) : definition
      let property = isProperty ? String(definition[definition.index(after: colon!)...]) : nil
      guard !event.isEmpty else { throw ValidationError("\(option) \(text): the event's name is empty.") }
      guard !metrics.contains(where: { $0.name == name }) else { throw ValidationError("\(option) \(name) is given twice.") }
      metrics.append(EventsAnalysis.EventMetric(name: name, event: event, property: property))
    }
    return metrics
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
