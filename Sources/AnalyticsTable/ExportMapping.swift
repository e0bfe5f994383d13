import Foundation

/// Where an analytics tool's export keeps what the analysis needs: the
/// event's name, the unit (the device or user), the time, the exposure
/// event with its experiment and variant, and the properties outcome
/// metrics read. The presets (`ExportPreset`) are mappings of the tools'
/// documented exports; `--map FILE.json` reads one for any other tool
/// (docs/analyze.md, docs/export-mapping.schema.json).
public struct ExportMapping: Sendable, Equatable {
  /// How the file holds rows.
  public enum Format: String, Sendable, CaseIterable {
    /// A header row, then a row per event (RFC 4180); a column may hold JSON text.
    case csv
    /// One JSON object per line (`.jsonl`, `.ndjson`).
    case jsonl
  }

  /// How an exposure shows in a row.
  public enum Exposure: Sendable, Equatable {
    /// Rows of the named events (whose `where` fields hold the given text)
    /// carry the experiment and the variant, each at the first of its paths
    /// that the row has.
    case event(names: [String], where: [FieldPath: String], experiment: [FieldPath], variant: [FieldPath])
    /// Every row carries the user's experiments as user properties: each
    /// `{key, value}` record of the repeated field whose key starts with the
    /// prefix is one (its key the experiment, its value the variant), as
    /// Firebase A/B Testing sets `firebase_exp_N`.
    case userProperties(FieldPath, keyPrefix: String)
  }

  /// The format, or nil to go by the file's extension.
  public var format: Format?
  public var event: FieldPath
  /// The unit's paths, the first a row has (and is not empty) counting.
  public var unit: [FieldPath]
  public var time: FieldPath
  public var timeFormat: EventTime.Format
  public var exposure: Exposure
  /// Where a metric's PROPERTY is: under this object (`event_properties`),
  /// or, ending in `[]`, the record of this repeated field whose key is the
  /// property (`event_params[]`). Nil: a PROPERTY is a path from the row.
  public var properties: String?
  /// The fields that together identify an event; rows that repeat them are
  /// counted once (Mixpanel's raw exports are not deduplicated).
  public var deduplicate: [FieldPath]
  /// The app version and the platform that sent an event, the first of each
  /// list's paths a row has, and the event a launch sends: what `bench fit`
  /// reads of the team's world and a simulated export writes; empty or nil
  /// where the tool's export lacks them.
  public var appVersion: [FieldPath] = []
  public var platform: [FieldPath] = []
  public var sessionEvent: String?
  /// The variant the tool itself makes every experiment's baseline, where its
  /// export says so (Firebase A/B Testing's variant 0): what `BaselineChoice`
  /// takes after `--baseline` and the scenario.
  public var baseline: String?
  /// Variants the tool's exposures carry that are no arm of any experiment:
  /// left out of the analysis, counted and said (Statsig's rule ids for a
  /// user no group holds: `layerAssignment`, outside the experiment's
  /// allocation in its layer; `default`, no rule passed; `disabled`; `error`).
  public var nonArms: Set<String> = []

  /// Other names tools give the session event a mapping names: Amplitude's
  /// SDKs of the 2.x line track sessions as "[Amplitude] Start Session"
  /// where the older ones sent "session_start", and one app's export may
  /// hold both, from users on either SDK.
  public static let sessionEventAliases: [String: [String]] = ["session_start": ["[Amplitude] Start Session"]]

  /// The path of a metric's property.
  public func propertyPath(_ property: String) -> FieldPath? {
    guard let properties else { return FieldPath(property) }
    if properties.hasSuffix("[]") {
      return FieldPath("\(properties.dropLast(2))[\(property)]")
    }
    return FieldPath("\(properties).\(property)")
  }

  /// Every path the mapping reads, for the header check and the message
  /// about fields no row had.
  var paths: [FieldPath] {
    var paths = [event] + unit + [time] + deduplicate
    switch exposure {
    case .event(_, let conditions, let experiment, let variant):
      paths += conditions.keys.sorted { $0.description < $1.description } + experiment + variant
    case .userProperties(let path, _):
      paths.append(path)
    }
    return paths
  }
}

/// A mapping file that cannot be used, with the member and the fix.
public struct ExportMappingError: Error, Equatable, CustomStringConvertible {
  public let description: String
}

extension ExportMapping {
  /// Reads a mapping from `--map`'s JSON, strictly: an unknown member or a
  /// value of the wrong type is an error that names it.
  public init(json data: [UInt8], path file: String) throws(ExportMappingError) {
    func fail(_ message: String) -> ExportMappingError {
      ExportMappingError(description: "\(file): \(message)")
    }
    let root: JSONValue
    do {
      root = try JSONValue.parse(data[...])
    } catch {
      throw fail("is not JSON: at byte \(error.column), \(error.reason)")
    }
    guard case .object(let members) = root else { throw fail("must be a JSON object of the mapping's members") }
    let known = [
      "format", "event", "unit", "time", "timeFormat", "exposure", "properties", "deduplicate", "appVersion", "platform",
      "sessionEvent", "baseline", "nonArms", "$schema", "description",
    ]
    if let unknown = members.first(where: { !known.contains($0.key) }) {
      throw fail("'\(unknown.key)' is not a member of a mapping (members: \(known.dropLast(2).joined(separator: ", ")))")
    }
    func string(_ value: JSONValue?, _ name: String) throws(ExportMappingError) -> String? {
      guard let value else { return nil }
      guard case .string(let text) = value, !text.isEmpty else { throw fail("\(name) must be a non-empty string") }
      return text
    }
    func path(_ value: JSONValue?, _ name: String) throws(ExportMappingError) -> FieldPath? {
      guard let text = try string(value, name) else { return nil }
      guard let path = FieldPath(text) else {
        throw fail("\(name) '\(text)' is not a path: names joined by '.', NAME[KEY] for a repeated {key, value} field")
      }
      return path
    }
    /// A path, or a list of paths tried in order.
    func paths(_ value: JSONValue?, _ name: String) throws(ExportMappingError) -> [FieldPath]? {
      guard let value else { return nil }
      if case .array(let elements) = value {
        guard !elements.isEmpty else { throw fail("\(name) must name at least one path") }
        var result: [FieldPath] = []
        for (index, element) in elements.enumerated() { result.append(try path(element, "\(name)[\(index)]")!) }
        return result
      }
      return [try path(value, name)!]
    }
    func required<T>(_ value: T?, _ name: String) throws(ExportMappingError) -> T {
      guard let value else { throw fail("\(name) is missing: \(Self.memberHelp[name] ?? "see docs/analyze.md")") }
      return value
    }

    if let text = try string(root[member: "format"], "format") {
      guard let format = Format(rawValue: text) else { throw fail("format must be csv or jsonl, not '\(text)'") }
      self.format = format
    } else {
      format = nil
    }
    event = try required(path(root[member: "event"], "event"), "event")
    unit = try required(paths(root[member: "unit"], "unit"), "unit")
    time = try required(path(root[member: "time"], "time"), "time")
    let formatText = try string(root[member: "timeFormat"], "timeFormat") ?? EventTime.Format.iso8601.rawValue
    guard let timeFormat = EventTime.Format(rawValue: formatText) else {
      throw fail("timeFormat must be one of \(EventTime.Format.allCases.map(\.rawValue).joined(separator: ", ")), not '\(formatText)'")
    }
    self.timeFormat = timeFormat
    let exposureValue = try required(root[member: "exposure"], "exposure")
    guard case .object(let exposureMembers) = exposureValue else { throw fail("exposure must be an object") }
    if let userProperties = try path(exposureValue[member: "userProperties"], "exposure.userProperties") {
      if let other = exposureMembers.first(where: { !["userProperties", "keyPrefix"].contains($0.key) }) {
        throw fail("exposure.\(other.key) does not go with exposure.userProperties (members: userProperties, keyPrefix)")
      }
      exposure = .userProperties(userProperties, keyPrefix: try string(exposureValue[member: "keyPrefix"], "exposure.keyPrefix") ?? "")
    } else {
      if let other = exposureMembers.first(where: { !["event", "where", "experiment", "variant"].contains($0.key) }) {
        throw fail("'exposure.\(other.key)' is not a member of exposure (members: event, where, experiment, variant; or userProperties, keyPrefix)")
      }
      let eventValue = try required(exposureValue[member: "event"], "exposure.event")
      var names: [String] = []
      if case .array(let elements) = eventValue {
        for (index, element) in elements.enumerated() { names.append(try string(element, "exposure.event[\(index)]")!) }
      } else {
        names = [try string(eventValue, "exposure.event")!]
      }
      guard !names.isEmpty else { throw fail("exposure.event must name at least one event") }
      var conditions: [FieldPath: String] = [:]
      if let whereValue = exposureValue[member: "where"] {
        guard case .object(let pairs) = whereValue else { throw fail("exposure.where must be an object of path: text") }
        for pair in pairs {
          guard let key = FieldPath(pair.key) else { throw fail("exposure.where '\(pair.key)' is not a path") }
          conditions[key] = try string(pair.value, "exposure.where.\(pair.key)")
        }
      }
      exposure = .event(
        names: names, where: conditions,
        experiment: try required(paths(exposureValue[member: "experiment"], "exposure.experiment"), "exposure.experiment"),
        variant: try required(paths(exposureValue[member: "variant"], "exposure.variant"), "exposure.variant"))
    }
    properties = try string(root[member: "properties"], "properties")
    if let properties, FieldPath(properties.hasSuffix("[]") ? String(properties.dropLast(2)) : properties) == nil {
      throw fail("properties '\(properties)' is not a path (an object's path, or a repeated field's followed by [])")
    }
    if let value = root[member: "deduplicate"] {
      guard case .array = value else { throw fail("deduplicate must be an array of paths") }
      deduplicate = try paths(value, "deduplicate") ?? []
    } else {
      deduplicate = []
    }
    appVersion = try paths(root[member: "appVersion"], "appVersion") ?? []
    platform = try paths(root[member: "platform"], "platform") ?? []
    sessionEvent = try string(root[member: "sessionEvent"], "sessionEvent")
    baseline = try string(root[member: "baseline"], "baseline")
    if let value = root[member: "nonArms"] {
      guard case .array(let elements) = value else { throw fail("nonArms must be an array of variant names") }
      var names: Set<String> = []
      for (index, element) in elements.enumerated() { names.insert(try string(element, "nonArms[\(index)]")!) }
      nonArms = names
    }
  }

  /// What each required member holds, for the message that it is missing.
  private static let memberHelp = [
    "event": "the path of the event's name, e.g. \"event_type\"",
    "unit": "the path of the unit's id (or a list, the first present counting), e.g. \"user_id\"",
    "time": "the path of the event's time, e.g. \"event_time\" (with timeFormat)",
    "exposure": "how exposures show: {\"event\", \"experiment\", \"variant\"} or {\"userProperties\", \"keyPrefix\"}",
    "exposure.event": "the exposure event's name, or a list of names",
    "exposure.experiment": "the path of the experiment's name in an exposure",
    "exposure.variant": "the path of the variant's name in an exposure",
  ]
}

/// The exports of the analytics tools mobile teams use, as their vendors
/// document them (docs/analyze.md cites each).
public enum ExportPreset: String, CaseIterable, Sendable {
  /// The Lab doc's analytics table, what `bench run --events` writes.
  case lab
  /// Amplitude's Export API: JSON Lines of events; Amplitude Experiment's `$exposure`.
  case amplitude
  /// Mixpanel's raw event export: JSON Lines; `$experiment_started`.
  case mixpanel
  /// Segment's archived messages: JSON Lines; the "Experiment Viewed" track call.
  case segment
  /// Statsig's events export: CSV whose metadata columns hold JSON text.
  case statsig
  /// Firebase's (GA4's) BigQuery export as JSON Lines; A/B Testing's `firebase_exp_N` user properties.
  case firebase

  /// The mapping of the preset; nil for `lab`, read by its own table reader.
  public var mapping: ExportMapping? {
    func path(_ text: String) -> FieldPath { FieldPath(text)! }
    switch self {
    case .lab:
      return nil
    case .amplitude:
      return ExportMapping(
        format: .jsonl, event: path("event_type"), unit: [path("amplitude_id")], time: path("event_time"),
        timeFormat: .iso8601,
        exposure: .event(
          names: ["$exposure"], where: [:], experiment: [path("event_properties.flag_key")],
          variant: [path("event_properties.variant")]),
        properties: "event_properties", deduplicate: [], appVersion: [path("version_name")], platform: [path("platform")],
        sessionEvent: "session_start")
    case .mixpanel:
      return ExportMapping(
        format: .jsonl, event: path("event"), unit: [path("properties.distinct_id")], time: path("properties.time"),
        timeFormat: .unix,
        exposure: .event(
          names: ["$experiment_started"], where: [:], experiment: [path("properties.Experiment name")],
          variant: [path("properties.Variant name")]),
        properties: "properties",
        deduplicate: [path("event"), path("properties.distinct_id"), path("properties.time"), path("properties.$insert_id")],
        appVersion: [path("properties.$app_version_string")], platform: [path("properties.$os")], sessionEvent: "$ae_session")
    case .segment:
      return ExportMapping(
        format: .jsonl, event: path("event"), unit: [path("userId"), path("anonymousId")], time: path("timestamp"),
        timeFormat: .iso8601,
        exposure: .event(
          names: ["Experiment Viewed"], where: [path("type"): "track"],
          experiment: [path("properties.experiment_id"), path("properties.experiment_name")],
          variant: [path("properties.variation_id"), path("properties.variation_name")]),
        properties: "properties", deduplicate: [], appVersion: [path("context.app.version")],
        platform: [path("context.os.name")], sessionEvent: "Application Opened")
    case .statsig:
      return ExportMapping(
        format: .csv, event: path("event_name"), unit: [path("user_id")], time: path("timestamp"), timeFormat: .iso8601,
        exposure: .event(
          names: ["statsig::config_exposure"], where: [:], experiment: [path("company_metadata.config")],
          variant: [path("company_metadata.ruleID")]),
        properties: "event_metadata", deduplicate: [], nonArms: ["layerAssignment", "default", "disabled", "error"])
    case .firebase:
      return ExportMapping(
        format: .jsonl, event: path("event_name"), unit: [path("user_pseudo_id")], time: path("event_timestamp"),
        timeFormat: .unixMicroseconds,
        exposure: .userProperties(path("user_properties"), keyPrefix: "firebase_exp_"),
        properties: "event_params[]", deduplicate: [], appVersion: [path("app_info.version")], platform: [path("platform")],
        sessionEvent: "session_start", baseline: "0")
    }
  }
}
