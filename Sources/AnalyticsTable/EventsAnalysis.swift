import Foundation
import Results
import ScenarioFormat
import Simulation

/// The same counts a simulation produces, from a real analytics events table
/// and a table of outcomes: each device counts once per experiment, under the
/// first variant its "displayed" events show, and is contaminated when they
/// show several variants of the experiment.
public struct EventsAnalysis {
  /// How to read the tables and what is known about the experiments.
  public struct Options: Sendable {
    /// The bench's column names mapped to the tables' own, e.g. `id_for_vendor` → `user_id`.
    public var columns: [String: String] = [:]
    /// Leave malformed rows out, counting them, instead of failing.
    public var skipMalformed = false
    /// The scenario the table comes from, when known: experiments' order,
    /// baselines, weights for the sample ratio check, metric kinds and the truth.
    public var scenario: Scenario?
    /// Baselines by experiment, overriding the scenario's or the first variant seen.
    public var baselines: [String: String] = [:]
    /// Metric kinds by metric, overriding the scenario's or the guess from the values.
    public var conversionMetrics: [String: Bool] = [:]
    /// The outcomes table holds events (a row per purchase or conversion),
    /// summed per device and metric, instead of one row per device and metric.
    /// A conversion metric counts a device with any event once.
    public var outcomesAreEvents = false
    /// How the `day` column writes time: day numbers, or timestamps that
    /// become calendar days in a time zone.
    public var time = EventTime()

    public init() {}
  }

  /// The document and the rows left out as malformed.
  public let document: ResultsDocument
  public let skippedRows: [(path: String, line: Int, reason: String)]

  /// - Parameter outcomesPath: the outcomes table, or nil for an analysis of
  ///   exposures alone (sample ratio and contamination, no metrics).
  public init(events eventsPath: String, outcomes outcomesPath: String?, name: String, options: Options) throws(AnalyticsTableError) {
    var exposures = ExposureLog()
    var devices = DeviceNumbers()
    let lastDay = (options.scenario?.days ?? ScenarioLimits.days.upperBound) - 1
    let eventsReader = TableReader(path: eventsPath, columns: options.columns)
    var skipped = try eventsReader.read(EventColumn.self, skipMalformed: options.skipMalformed) {
      (row: TableRow<EventColumn>) throws(RowError) in
      // With versions, activations say which version's weights selected a device's variant.
      let activated = row.field(.reason, is: "activated")
      if activated || row.field(.reason, is: "deactivated"), !row.isEmpty(.version) {
        exposures.track(
          device: devices.number(of: row.bytes(.device)), experiment: row.bytes(.experiment),
          variant: activated ? row.bytes(.variant) : nil, version: row.bytes(.version))
        return
      }
      guard row.field(.reason, is: "displayed") else { return }
      let device = row.bytes(.device), experiment = row.bytes(.experiment), variant = row.bytes(.variant)
      guard !device.isEmpty else { throw RowError("has an empty id_for_vendor") }
      guard !experiment.isEmpty, !variant.isEmpty else { throw RowError("has an empty experiment or variant") }
      guard let day = options.time.day(of: row.bytes(.day)) else {
        throw RowError(Self.timeProblem(row[.day], options: options, lastDay: lastDay))
      }
      if options.time.format == .day {
        guard (0..<lastDay + 1).contains(day) else { throw RowError(Self.timeProblem(row[.day], options: options, lastDay: lastDay)) }
      } else if let start = options.time.start, day < start {
        throw RowError("day '\(row[.day])' is before the start date: pass an earlier --start, or leave it out to start at the first event")
      }
      let number = devices.number(of: device)
      exposures.record(device: number, experiment: experiment, variant: variant, day: day, version: row.bytes(.version))
      devices.count(number)
    }.map { (path: eventsPath, line: $0.line, reason: $0.reason) }
    guard !exposures.experiments.isEmpty else { throw .noDisplayedEvents(path: eventsPath) }
    if options.time.format != .day {
      // Calendar days become days of the run: day 0 is the start date, or the first event's day.
      let origin = options.time.start ?? exposures.firstDay
      guard exposures.lastDay - origin <= lastDay else {
        throw .spanTooLong(path: eventsPath, days: exposures.lastDay - origin + 1, limit: lastDay + 1)
      }
      exposures.shiftDays(by: -origin)
    }

    var outcomes = OutcomeLog(summing: options.outcomesAreEvents)
    if let outcomesPath {
      skipped += try Self.readOutcomes(outcomesPath, into: &outcomes, devices: &devices, options: options)
    }

    for (experiment, baseline) in options.baselines.sorted(by: { $0.key < $1.key }) {
      guard let log = exposures.log(of: experiment) else {
        throw .unknownBaseline(experiment: experiment, variant: baseline, known: exposures.experimentOrder, isExperiment: false)
      }
      guard log.variants.existingNumber(of: baseline) != nil else {
        throw .unknownBaseline(experiment: experiment, variant: baseline, known: log.variants.names, isExperiment: true)
      }
    }
    skippedRows = skipped
    document = Self.document(
      name: name, exposures: exposures, outcomes: outcomes, deviceCount: devices.countedDevices, options: options)
  }

  /// Why a `day` field is not a time of the table's format, with the fix.
  private static func timeProblem(_ text: String, options: Options, lastDay: Int) -> String {
    switch options.time.format {
    case .day:
      let looksLikeTime = EventTime(format: .iso8601).day(of: text) != nil
      return "day '\(text)' is not a whole number of days from 0 to \(lastDay)"
        + (options.scenario == nil ? " (ten years)" : ", the scenario's last day")
        + (looksLikeTime ? "; for timestamps pass --time iso8601" : "")
    case .iso8601: return "day '\(text)' is not an ISO 8601 time such as 2026-11-24 or 2026-11-24T09:30:00Z"
    case .unix: return "day '\(text)' is not a Unix time in seconds"
    case .unixMilliseconds: return "day '\(text)' is not a Unix time in milliseconds"
    }
  }

  /// Reads the outcomes table into `outcomes`; returns the rows skipped as malformed.
  private static func readOutcomes(
    _ path: String, into outcomes: inout OutcomeLog, devices: inout DeviceNumbers, options: Options
  ) throws(AnalyticsTableError) -> [(path: String, line: Int, reason: String)] {
    try TableReader(path: path, columns: options.columns).read(OutcomeColumn.self, skipMalformed: options.skipMalformed) {
      (row: TableRow<OutcomeColumn>) throws(RowError) in
      let device = row.bytes(.device), metric = row.bytes(.metric), text = row[.value]
      guard !device.isEmpty, !metric.isEmpty else { throw RowError("has an empty id_for_vendor or metric") }
      guard let value = Double(text), value.isFinite else { throw RowError("value '\(text)' is not a number") }
      // As a scenario's amounts: beyond them, sums and variances leave the range the analysis keeps exact.
      guard abs(value) <= Metric.acceptedMeans.upperBound else {
        throw RowError("value '\(text)' is beyond ±10¹⁵, the amounts the analysis keeps exact: scale the unit (cents to dollars, say)")
      }
      let number = devices.number(of: device)
      guard outcomes.record(device: number, metric: metric, value: value) else {
        throw RowError(
          "repeats the \(row[.metric]) of device \(row[.device]): give each device one row per metric, or pass --outcome-events to sum them")
      }
      devices.count(number)
    }.map { (path: path, line: $0.line, reason: $0.reason) }
  }

  private static func document(
    name: String, exposures: ExposureLog, outcomes: OutcomeLog, deviceCount: Int, options: Options
  ) -> ResultsDocument {
    let scenario = options.scenario
    let metricNames = scenario.map { $0.metrics.map(\.name) }.map { known in known + outcomes.metrics.filter { !known.contains($0) } }
      ?? outcomes.metrics.sorted()
    let isConversion = metricNames.map { metric in
      options.conversionMetrics[metric]
        ?? scenario?.metrics.first { $0.name == metric }.map { $0.kind == .conversion }
        ?? outcomes.isBinary(metric)
    }
    let days = max(exposures.lastDay + 1, scenario?.days ?? 0)
    // Given values: the finest grid on which each metric's largest still fits.
    let stepExponents = metricNames.map { Moments.stepExponent(forLargest: outcomes.largestMagnitude(of: $0)) }
    let scenarioOrder = scenario.map { SimulationPlan($0) }
    var experimentNames = scenarioOrder?.experimentNames.filter { exposures.log(of: $0) != nil } ?? []
    experimentNames += exposures.experimentOrder.filter { !experimentNames.contains($0) }

    let experiments = experimentNames.map { experimentName -> ExperimentResult in
      let log = exposures.log(of: experimentName)!
      let planned = scenarioOrder.flatMap { plan in plan.experimentNames.firstIndex(of: experimentName).map { plan.variantNames[$0] } } ?? []
      let plannedSet = Set(planned)
      let variantNames = planned.filter { log.variants.existingNumber(of: $0) != nil }
        + log.variants.names.filter { !plannedSet.contains($0) }
      // The experiment's definition in each version that has it, in version order.
      let versioned = scenario?.versions.compactMap { version in
        version.experiments.first { $0.name == experimentName }.map { (version: version.version, definition: $0) }
      } ?? []
      let definitions = versioned.map(\.definition)
      let baseline = options.baselines[experimentName] ?? definitions.last?.baseline ?? log.variants.names[0]
      let place = Dictionary(uniqueKeysWithValues: variantNames.enumerated().map { ($1, $0) })
      var variants = Array(repeating: VariantTally(stepExponents: stepExponents), count: variantNames.count)
      var mixed = 0
      var raw = Array(repeating: Array(repeating: [Double](), count: metricNames.count), count: variantNames.count)
      var dailyNewExposures = Array(repeating: Array(repeating: 0, count: days), count: variantNames.count)
      var cohorts = Array(
        repeating: Array(repeating: stepExponents.map(MetricTally.init(stepExponent:)), count: variantNames.count),
        count: days)
      let exclude = (scenario?.analysis.attribution ?? .firstExposure) == .excludeContaminated
      let byVersion = Dictionary(uniqueKeysWithValues: versioned)
      // A device's chance of each variant (by place): the selecting version's
      // split, given that its variant is one the showing version still has.
      // Nil when a version is unknown or a variant is not in the table.
      // By `selectedIn * versions + shownIn`, the log's version numbers.
      let versionNames = exposures.versions.names
      var splits: [Int: [(place: Int, share: Double)]?] = [:]
      func split(selectedIn: Int32, shownIn: Int32) -> [(place: Int, share: Double)]? {
        let key = Int(selectedIn) * versionNames.count + Int(shownIn)
        if let known = splits[key] { return known }
        var result: [(place: Int, share: Double)]?
        if let selecting = byVersion[versionNames[Int(selectedIn)]], let showing = byVersion[versionNames[Int(shownIn)]] {
          let kept = zip(selecting.variants, selecting.selectionProbabilities)
            .filter { showing.variantIndex(named: $0.0.name) != nil }
          let total = kept.map(\.1).reduce(0, +)
          let places = kept.map { place[$0.0.name] }
          if total > 0, places.allSatisfy({ $0 != nil }) {
            result = zip(places, kept).map { ($0!, $1.1 / total) }
          }
        }
        splits[key] = .some(result)
        return result
      }
      var expected: [Double]? = byVersion.isEmpty ? nil : Array(repeating: 0, count: variantNames.count)
      // From the log's variant places to the report's.
      let places = log.variants.names.map { place[$0]! }
      let outcomeColumns = metricNames.map { outcomes.index(of: $0) }
      for (device, record) in zip(log.devices, log.records) {
        // A record holds each variant once, so a device shown one is pure.
        let pure = record.count == 1
        for index in 0..<record.count {
          let shown = record.shown(index), variant = places[Int(shown.variant)]
          variants[variant].exposed += 1
          if !pure { variants[variant].contaminated += 1 }
          dailyNewExposures[variant][shown.day] += 1
        }
        if !pure { mixed += 1 }
        let firstShown = record.first, first = places[Int(firstShown.variant)], firstDay = firstShown.day
        variants[first].firstExposed += 1
        if expected != nil {
          if let split = split(selectedIn: firstShown.selectedIn, shownIn: firstShown.shownIn) {
            for (index, share) in split { expected![index] += share }
          } else {
            expected = nil
          }
        }
        for (index, column) in outcomeColumns.enumerated() {
          // Events of a conversion metric: a device with any counts once.
          let sum = column.map { outcomes.value(device: device, metric: $0) } ?? 0
          let value = options.outcomesAreEvents && isConversion[index] ? min(sum, 1) : sum
          variants[first].firstExposure[index].add(value, isConversion: isConversion[index])
          if pure { variants[first].uncontaminated[index].add(value, isConversion: isConversion[index]) }
          if pure || !exclude { raw[first][index].append(value) }
          if pure || !exclude { cohorts[firstDay][first][index].add(value, isConversion: isConversion[index]) }
        }
      }
      var running = Array(repeating: stepExponents.map(MetricTally.init(stepExponent:)), count: variantNames.count)
      var dailyMetrics: [[[MetricSummary]]] = []
      for day in 0..<days {
        for variant in variantNames.indices {
          for metric in metricNames.indices { running[variant][metric].merge(cohorts[day][variant][metric]) }
        }
        dailyMetrics.append(variantNames.indices.map { variant in
          metricNames.indices.map { summary(metricNames[$0], isConversion[$0], running[variant][$0]) }
        })
      }
      var result = ExperimentResult(
        name: experimentName, source: definitions.isEmpty ? "events" : "local", baseline: baseline,
        variants: variantNames.enumerated().map { index, variantName in
          let counted = exclude ? variants[index].uncontaminated : variants[index].firstExposure
          let weight = definitions.last { $0.variantIndex(named: variantName) != nil }
            .map { $0.variants[$0.variantIndex(named: variantName)!].weight }
          return VariantResult(
            name: variantName, weight: definitions.isEmpty ? nil : weight ?? 0, exposed: variants[index].exposed,
            contaminated: variants[index].contaminated, firstExposed: variants[index].firstExposed,
            expectedFirstExposed: expected?[index],
            metrics: metricNames.indices.map { summary(metricNames[$0], isConversion[$0], counted[$0]) })
        },
        mixedDevices: mixed, transitions: [], dailyNewExposures: dailyNewExposures, dailyMetrics: dailyMetrics, srm: nil,
        analysis: [])
      result.rawOutcomes = raw
      return result
    }
    return ResultsDocument(
      scenario: name, seed: nil, devices: deviceCount, days: days, replications: 1,
      launches: 0, stabilizedDevices: 0, experiments: experiments, conflicts: [], calibration: nil)
  }

  private static func summary(_ name: String, _ isConversion: Bool, _ tally: MetricTally) -> MetricSummary {
    var summary = MetricSummary(
      name: name, isConversion: isConversion, n: tally.outcomes.count, conversions: isConversion ? tally.conversions : nil,
      mean: tally.outcomes.mean, variance: tally.outcomes.sampleVariance, trueMean: nil, trueLift: nil)
    summary.skewness = isConversion ? nil : tally.skewness
    return summary
  }
}

/// The events table's columns: "version" is optional.
private enum EventColumn: Int, TableColumn {
  case variant, experiment, reason, device, day, version

  var name: String {
    switch self {
    case .variant: "variant"
    case .experiment: "experiment"
    case .reason: "reason"
    case .device: "id_for_vendor"
    case .day: "day"
    case .version: "version"
    }
  }

  var isOptional: Bool { self == .version }
}

/// The outcomes table's columns, all required.
private enum OutcomeColumn: Int, TableColumn {
  case device, metric, value

  var name: String {
    switch self {
    case .device: "id_for_vendor"
    case .metric: "metric"
    case .value: "value"
    }
  }

  var isOptional: Bool { false }
}
