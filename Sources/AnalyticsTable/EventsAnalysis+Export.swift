import Foundation
import Results
import ScenarioFormat

extension EventsAnalysis {
  /// Reads an analytics tool's export through its mapping: exposures into
  /// the log, the metrics' events into the timed outcomes; rows of other
  /// events, rows without a unit and duplicated rows are counted in
  /// `leftOut`. Returns the rows skipped as malformed.
  static func readExport(
    _ path: String, mapping: ExportMapping, options: Options, lastDay: Int, into reading: inout Reading
  ) throws(AnalyticsTableError) -> [(path: String, line: Int, reason: String)] {
    let format: ExportMapping.Format
    if let given = mapping.format { format = given } else { format = try Self.format(ofFile: path) }
    // Each metric's and covariate's event, its place in the timed outcomes and where its property may be.
    for covariate in options.covariates {
      reading.covariates[covariate.name] = reading.timed.metric(named: "\(covariate.name) before the first exposure")
    }
    let definitions = options.eventMetrics.map { ($0, reading.timed.metric(named: $0.name)) }
      + options.covariates.map { ($0, reading.covariates[$0.name]!) }
    let metrics = definitions.map { metric, index in
      (
        event: metric.event, index: index, property: metric.property,
        paths: metric.property.map { property in
          [mapping.propertyPath(property), FieldPath(property)].compactMap { $0 }
        } ?? []
      )
    }
    // With --fold-event-case, every spelling of a metric's event is it: names compare folded.
    let fold = options.foldEventCase
    func key(_ name: String) -> String { fold ? NameFolding.folded(name) : name }
    let metricKeys = metrics.map { key($0.event) }
    let metricEvents = Set(metricKeys)
    // What the rows hold, for the message that a name matches nothing: the rows of each metric's
    // event, of other events (up to a bound of names), and, by metric, the names found where its
    // property was sought while no event had it.
    var metricEventRows: [String: Int] = [:]
    var otherEventRows: [String: Int] = [:]
    var withProperty = Array(repeating: 0, count: metrics.count)
    var withoutProperty = Array(repeating: 0, count: metrics.count)
    var propertyNeighbours = Array(repeating: [String: Int](), count: metrics.count)
    var exposureNames: Set<String> = []
    if case .event(let names, _, _, _) = mapping.exposure { exposureNames = Set(names) }
    // Whether any row had each of the mapping's paths, for the message when no exposure counts.
    var seen = Set<FieldPath>()
    var seenDuplicates = Set<[String?]>()
    var exposed: [(experiment: String, variant: String)] = []

    let reader = ExportReader(
      path: path, format: format, required: mapping.paths,
      optional: metrics.flatMap(\.paths))
    let skipped = try reader.read(skipMalformed: options.skipMalformed) { (row: JSONValue, line: Int) throws(RowError) in
      func text(_ path: FieldPath) -> String? {
        guard let text = path.resolve(in: row)?.text, !text.isEmpty else { return nil }
        seen.insert(path)
        return text
      }
      let event = text(mapping.event)
      exposed.removeAll(keepingCapacity: true)
      switch mapping.exposure {
      case .event(_, let conditions, let experimentPaths, let variantPaths):
        guard let event, exposureNames.contains(event), conditions.allSatisfy({ text($0.key) == $0.value }) else { break }
        guard let experiment = experimentPaths.lazy.compactMap(text).first else {
          throw RowError(
            "is a \(event) event without \(experimentPaths.map { "'\($0)'" }.joined(separator: " or ")), the experiment")
        }
        guard let variant = variantPaths.lazy.compactMap(text).first else {
          reading.leftOut.withoutVariant += 1
          return
        }
        exposed.append((experiment, variant))
      case .userProperties(let arrayPath, let prefix):
        guard case .array(let properties)? = arrayPath.resolve(in: row) else { break }
        seen.insert(arrayPath)
        for property in properties {
          guard let key = property[member: "key"]?.text, key.hasPrefix(prefix), key.count > prefix.count else { continue }
          let value = property[member: "value"].map { $0.typedSlot ?? $0 }
          guard let variant = value?.text, !variant.isEmpty else { continue }
          exposed.append((key, variant))
        }
      }
      let eventKey = event.map(key)
      let isMetricEvent = eventKey.map(metricEvents.contains) ?? false
      if !exposed.isEmpty, !mapping.nonArms.isEmpty || !options.excludedVariants.isEmpty {
        exposed.removeAll { exposure in
          guard mapping.nonArms.contains(exposure.variant) || options.excludedVariants[exposure.experiment]?.contains(exposure.variant) == true
          else { return false }
          reading.leftOut.notArms[exposure.experiment, default: [:]][exposure.variant, default: 0] += 1
          return true
        }
        // An exposure that is no arm, and nothing else: counted above, not as another event.
        if exposed.isEmpty && !isMetricEvent { return }
      }
      guard !exposed.isEmpty || isMetricEvent else {
        reading.leftOut.otherEvents += 1
        if let event, otherEventRows.count < Self.namesKept || otherEventRows[event] != nil { otherEventRows[event, default: 0] += 1 }
        return
      }
      if isMetricEvent, let eventKey { metricEventRows[eventKey, default: 0] += 1 }
      guard let unit = mapping.unit.lazy.compactMap(text).first else {
        reading.leftOut.withoutUnit += 1
        return
      }
      guard let timeText = text(mapping.time) else {
        throw RowError("has no \(mapping.time), the event's time")
      }
      let instant = try Self.instant(timeText, column: mapping.time.description, options: options, lastDay: lastDay)
      if !mapping.deduplicate.isEmpty {
        let key = mapping.deduplicate.map(text)
        guard seenDuplicates.insert(key).inserted else {
          reading.leftOut.duplicates += 1
          return
        }
      }
      var unitText = unit
      let device = unitText.withUTF8 { reading.devices.number(of: $0) }
      for exposure in exposed {
        var experiment = exposure.experiment, variant = exposure.variant
        experiment.withUTF8 { experiment in
          variant.withUTF8 { variant in
            reading.exposures.record(
              device: device, experiment: experiment, variant: variant, at: instant, version: UnsafeBufferPointer(start: nil, count: 0))
          }
        }
      }
      if isMetricEvent {
        for (number, metric) in metrics.enumerated() where metricKeys[number] == eventKey {
          var value = 1.0
          if let property = metric.property {
            // Absent, null or empty, the property adds 0 to the sum, as SQL's SUM does; present, it must be a number.
            if let found = metric.paths.lazy.compactMap({ $0.resolve(in: row) }).first(where: { !$0.isMissingValue }) {
              guard let text = found.text else {
                throw RowError("is a \(metric.event) event whose '\(property)' is \(found.typeName), not a number")
              }
              value = try Self.amount(text, of: property)
              withProperty[number] += 1
            } else {
              value = 0
              withoutProperty[number] += 1
              if withProperty[number] == 0, withoutProperty[number] <= Self.namesKept {
                for path in metric.paths {
                  for name in path.neighbours(in: row) { propertyNeighbours[number][name, default: 0] += 1 }
                }
              }
            }
          }
          reading.timed.record(device: device, metric: metric.index, time: instant.nanoseconds, value: value)
        }
      }
      reading.devices.count(device)
    }.map { (path: path, line: $0.line, reason: $0.reason) }
    guard !reading.exposures.experiments.isEmpty else {
      let exposure = Self.describe(mapping.exposure)
      // Rows with events, none of them the exposure's: the names the file has say more than the fields it lacks.
      if case .event(let names, _, _, _) = mapping.exposure, seen.contains(mapping.event), names.allSatisfy({ otherEventRows[$0] == nil }) {
        throw .noExposures(
          path: path, exposure: exposure + "; " + Self.namesFound(near: names[0], in: otherEventRows, what: "events", holder: "the file"))
      }
      var unseen: [String] = []
      for path in mapping.paths where !seen.contains(path) && !unseen.contains(path.description) { unseen.append(path.description) }
      guard unseen.isEmpty else { throw .missingFields(path: path, fields: unseen) }
      throw .noExposures(path: path, exposure: exposure)
    }
    let specifications = options.eventMetrics.map { ("--metric", $0) } + options.covariates.map { ("--covariate", $0) }
    for ((option, metric), number) in zip(specifications, metrics.indices) {
      let named = "\(option) \(metric.name)=\(metric.event)" + (metric.property.map { ":\($0)" } ?? "")
      guard metricEventRows[key(metric.event)] != nil else {
        throw .unmatchedName(
          option: named,
          reason: "no row is a '\(metric.event)' event; " + Self.namesFound(near: metric.event, in: otherEventRows, what: "events", holder: "the file"))
      }
      if let property = metric.property, withProperty[number] == 0 {
        let neighbours = propertyNeighbours[number]
        throw .unmatchedName(
          option: named,
          reason: neighbours[property] != nil
            ? "every '\(metric.event)' event's '\(property)' is null or empty: the sum would be 0 for every device"
            : "no '\(metric.event)' event has '\(property)'; "
              + Self.namesFound(near: property, in: neighbours, what: "fields", holder: "its events", plural: true))
      }
    }
    // Other spellings of a metric's event, which it does not count unless names are folded.
    if !fold {
      for (option, metric) in specifications {
        let folded = NameFolding.folded(metric.event)
        let others = otherEventRows.filter { $0.key != metric.event && NameFolding.folded($0.key) == folded }
          .map { (name: $0.key, rows: $0.value) }.sorted { ($1.rows, $0.name) < ($0.rows, $1.name) }
        guard !others.isEmpty else { continue }
        reading.otherSpellings.append(OtherSpelling(
          option: "\(option) \(metric.name)=\(metric.event)" + (metric.property.map { ":\($0)" } ?? ""), event: metric.event,
          rows: metricEventRows[metric.event] ?? 0, others: others))
      }
    }
    reading.missingProperties = zip(options.eventMetrics, metrics.indices).compactMap { metric, number in
      metric.property.map { property in
        MissingPropertyCount(
          metric: metric.name, event: metric.event, property: property,
          events: withProperty[number] + withoutProperty[number], withoutProperty: withoutProperty[number])
      }
    }
    return skipped
  }

  /// How many distinct event or field names the reader keeps for its suggestions: enough for any
  /// real export's events, and a bound on the memory of a file that makes a name per row.
  static let namesKept = 10_000

  /// The names a user likely meant, with their rows ("the file has 'Purchase' (380 rows)"), or, when
  /// none is near, the most frequent ones.
  ///
  /// - Parameter holder: what has the names, in the plural or not ("the file", "its events").
  static func namesFound(near name: String, in counts: [String: Int], what: String, holder: String, plural: Bool = false) -> String {
    let has = plural ? "have" : "has"
    guard !counts.isEmpty else { return "\(holder) \(has) no other \(what)" }
    func listed(_ names: [(name: String, count: Int)]) -> String {
      names.map { "'\($0.name)' (\($0.count) row\($0.count == 1 ? "" : "s"))" }.joined(separator: ", ")
    }
    let candidates = counts.map { (name: $0.key, count: $0.value) }
    let near = ClosestNames.near(name, among: candidates)
    if !near.isEmpty { return "\(holder) \(has) \(listed(near))" }
    let frequent = candidates.sorted { ($1.count, $0.name) < ($0.count, $1.name) }.prefix(5)
    return "the most frequent \(what) of \(holder) are \(listed(Array(frequent)))"
  }

  /// The format a file's extension says, or the error that asks for one.
  static func format(ofFile path: String) throws(AnalyticsTableError) -> ExportMapping.Format {
    switch URL(fileURLWithPath: path).pathExtension.lowercased() {
    case "csv": return .csv
    case "jsonl", "ndjson", "json": return .jsonl
    default:
      throw .unusableMapping(
        path: path, reason: "its name does not say CSV or JSON Lines (.csv, .jsonl, .ndjson): give the mapping a \"format\"")
    }
  }

  /// The exposures a mapping counts, for the message that a file has none.
  private static func describe(_ exposure: ExportMapping.Exposure) -> String {
    switch exposure {
    case .event(let names, let conditions, let experiment, let variant):
      let condition = conditions.keys.sorted { $0.description < $1.description }
        .map { " where \($0) is \(conditions[$0]!)" }.joined()
      return "no row is \(names.map { "a \($0)" }.joined(separator: " or ")) event\(condition) with "
        + "\(experiment.map(\.description).joined(separator: " or ")) and \(variant.map(\.description).joined(separator: " or "))"
    case .userProperties(let path, let prefix):
      return "no row has a \(path) record whose key starts with \(prefix)"
    }
  }
}
