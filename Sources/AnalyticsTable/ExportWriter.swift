import Foundation
import Results

/// Writes events as an analytics tool exports them: the inverse of reading
/// its export with the tool's mapping (`ExportMapping`), so that what a
/// simulation writes in Amplitude's shape reads back through the Amplitude
/// preset, and a team can run its own pipeline on simulated data
/// (docs/world.md). Each path of the mapping is written where a reader looks
/// first; a CSV row holds a column per path's first name, JSON text where the
/// path goes inside it.
public struct ExportWriter: Sendable {
  public let mapping: ExportMapping
  /// The format rows are written in: the mapping's, JSON Lines without one.
  public let format: ExportMapping.Format
  /// Each CSV column, in order: the first names of the paths the rows fill.
  private let columns: [String]

  /// One event of one unit.
  public struct Event: Sendable {
    public var name: String
    public var unit: String
    /// Nanoseconds since 1970-01-01, UTC.
    public var time: Int64
    public var appVersion: String?
    public var platform: String?
    /// The experiment and variant an exposure event carries.
    public var exposure: (experiment: String, variant: String)?
    /// The unit's experiments so far, for a tool that keeps them as user
    /// properties (Firebase).
    public var userExperiments: [(experiment: String, variant: String)]
    /// Numeric properties, by name (a purchase's value).
    public var properties: [(name: String, value: Double)]

    public init(
      name: String, unit: String, time: Int64, appVersion: String? = nil, platform: String? = nil,
      exposure: (experiment: String, variant: String)? = nil,
      userExperiments: [(experiment: String, variant: String)] = [], properties: [(name: String, value: Double)] = []
    ) {
      self.name = name
      self.unit = unit
      self.time = time
      self.appVersion = appVersion
      self.platform = platform
      self.exposure = exposure
      self.userExperiments = userExperiments
      self.properties = properties
    }
  }

  public init(mapping: ExportMapping) {
    self.mapping = mapping
    format = mapping.format ?? .jsonl
    var columns: [String] = []
    var paths = [mapping.event, mapping.unit[0], mapping.time] + mapping.appVersion.prefix(1) + mapping.platform.prefix(1)
    switch mapping.exposure {
    case .event(_, let conditions, let experiment, let variant):
      paths += conditions.keys.sorted { $0.description < $1.description } + [experiment[0], variant[0]]
    case .userProperties(let path, _):
      paths.append(path)
    }
    if let properties = mapping.properties, let path = FieldPath(properties.hasSuffix("[]") ? String(properties.dropLast(2)) : properties) {
      paths.append(path)
    }
    for path in paths where !columns.contains(path.head) { columns.append(path.head) }
    self.columns = columns
  }

  /// The header line of a CSV table; nil for JSON Lines.
  public var header: [UInt8]? {
    guard format == .csv else { return nil }
    return Array((columns.map(Self.csvField).joined(separator: ",") + "\n").utf8)
  }

  /// The event's line.
  public func line(_ event: Event) -> [UInt8] {
    var row = JSONTree()
    row.set(mapping.event, .string(event.name))
    row.set(mapping.unit[0], .string(event.unit))
    row.set(mapping.time, Self.time(event.time, format: mapping.timeFormat))
    if let version = event.appVersion, let path = mapping.appVersion.first { row.set(path, .string(version)) }
    if let platform = event.platform, let path = mapping.platform.first { row.set(path, .string(platform)) }
    switch mapping.exposure {
    case .event(_, let conditions, let experiment, let variant):
      if let exposure = event.exposure {
        for (path, text) in conditions.sorted(by: { $0.key.description < $1.key.description }) { row.set(path, .string(text)) }
        row.set(experiment[0], .string(exposure.experiment))
        row.set(variant[0], .string(exposure.variant))
      }
    case .userProperties(let path, let prefix):
      let experiments = event.userExperiments + (event.exposure.map { [$0] } ?? [])
      var seen: Set<String> = []
      for (experiment, variant) in experiments where seen.insert(experiment).inserted {
        row.set(FieldPath("\(path.description)[\(prefix)\(experiment)]")!, .string(variant))
      }
    }
    for (name, value) in event.properties {
      if let path = mapping.propertyPath(name) { row.set(path, .number(value)) }
    }
    switch format {
    case .jsonl:
      return Array((row.json.renderedOnOneLine() + "\n").utf8)
    case .csv:
      let fields = columns.map { column -> String in
        guard let value = row.member(column) else { return "" }
        if case .string(let text) = value { return Self.csvField(text) }
        return Self.csvField(value.renderedOnOneLine())
      }
      return Array((fields.joined(separator: ",") + "\n").utf8)
    }
  }

  /// A time as the tool writes it.
  static func time(_ nanoseconds: Int64, format: EventTime.Format) -> OrderedJSON {
    switch format {
    case .day: return .integer(Int(nanoseconds / 86_400_000_000_000))
    case .unix: return .integer(Int(nanoseconds / 1_000_000_000))
    case .unixMilliseconds: return .integer(Int(nanoseconds / 1_000_000))
    case .unixMicroseconds: return .string(String(nanoseconds / 1_000))
    case .iso8601:
      let seconds = nanoseconds / 1_000_000_000, milliseconds = nanoseconds / 1_000_000 % 1_000
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
      return .string(
        String(
          format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
          parts.second!, Int(milliseconds)))
    }
  }

  static func csvField(_ text: String) -> String {
    text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
      ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
  }
}

/// A JSON object built path by path, its members in the order first set.
struct JSONTree {
  private var members: [(String, OrderedJSON)] = []

  var json: OrderedJSON { .object(members) }

  func member(_ name: String) -> OrderedJSON? { members.first { $0.0 == name }?.1 }

  mutating func set(_ path: FieldPath, _ value: OrderedJSON) {
    var root = OrderedJSON.object(members)
    Self.set(&root, steps: path.steps[...], value)
    guard case .object(let updated) = root else { return }
    members = updated
  }

  private static func set(_ node: inout OrderedJSON, steps: ArraySlice<FieldPath.Step>, _ value: OrderedJSON) {
    guard let step = steps.first else {
      node = value
      return
    }
    switch step {
    case .member(let name):
      var members: [(String, OrderedJSON)] = []
      if case .object(let existing) = node { members = existing }
      let index = members.firstIndex { $0.0 == name } ?? {
        members.append((name, .null))
        return members.count - 1
      }()
      set(&members[index].1, steps: steps.dropFirst(), value)
      node = .object(members)
    case .keyed(let key):
      // A repeated {key, value} record, its value in the typed slot BigQuery writes it in.
      var records: [OrderedJSON] = []
      if case .array(let existing) = node { records = existing }
      var slot = OrderedJSON.null
      set(&slot, steps: steps.dropFirst(), value)
      let typed: OrderedJSON =
        switch slot {
        case .number(let number) where number.rounded() == number && abs(number) < 1e15: .object([("int_value", slot)])
        case .number, .integer: .object([("double_value", slot)])
        default: .object([("string_value", slot)])
        }
      records.append(.object([("key", .string(key)), ("value", typed)]))
      node = .array(records)
    }
  }
}
