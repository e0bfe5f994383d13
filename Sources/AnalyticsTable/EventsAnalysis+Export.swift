import Foundation

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
    let metricEvents = Set(metrics.map(\.event))
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
      let isMetricEvent = event.map(metricEvents.contains) ?? false
      guard !exposed.isEmpty || isMetricEvent else {
        reading.leftOut.otherEvents += 1
        return
      }
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
      let device = reading.devices.number(of: ArraySlice(unit.utf8))
      for exposure in exposed {
        reading.exposures.record(
          device: device, experiment: ArraySlice(exposure.experiment.utf8), variant: ArraySlice(exposure.variant.utf8),
          at: instant, version: [])
      }
      if isMetricEvent {
        for metric in metrics where metric.event == event {
          var value = 1.0
          if let property = metric.property {
            guard let found = metric.paths.lazy.compactMap({ $0.resolve(in: row)?.text }).first else {
              throw RowError(
                "is a \(metric.event) event without '\(property)' (looked in \(metric.paths.map(\.description).joined(separator: ", "))): "
                  + "give every \(metric.event) event the property")
            }
            value = try Self.amount(found, of: property)
          }
          reading.timed.record(device: device, metric: metric.index, time: instant.nanoseconds, value: value)
        }
      }
      reading.devices.count(device)
    }.map { (path: path, line: $0.line, reason: $0.reason) }
    guard !reading.exposures.experiments.isEmpty else {
      var unseen: [String] = []
      for path in mapping.paths where !seen.contains(path) && !unseen.contains(path.description) { unseen.append(path.description) }
      guard unseen.isEmpty else { throw .missingFields(path: path, fields: unseen) }
      throw .noExposures(path: path, exposure: Self.describe(mapping.exposure))
    }
    return skipped
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
