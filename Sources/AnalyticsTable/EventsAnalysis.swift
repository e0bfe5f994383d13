import Foundation
import Results
import ScenarioFormat
import Tallies

/// The same counts a simulation produces, from a real analytics events table
/// and its outcomes: each device counts once per experiment, under the first
/// variant its exposures show, and is contaminated when they show several
/// variants of the experiment. The table is the Lab doc's (its "displayed"
/// events), or an analytics tool's export read through an `ExportMapping`.
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
    /// Baselines by experiment, ahead of every other source (`BaselineChoice`).
    public var baselines: [String: String] = [:]
    /// By experiment, the variants its exposures carry that are no arm of it
    /// (`--exclude-variant`): left out, counted in `LeftOut.notArms`.
    public var excludedVariants: [String: Set<String>] = [:]
    /// Metric kinds by metric, overriding the scenario's or the guess from the values.
    public var conversionMetrics: [String: Bool] = [:]
    /// The outcomes table holds events (a row per purchase or conversion),
    /// summed per device and metric, instead of one row per device and metric.
    /// A conversion metric counts a device with any event once.
    public var outcomesAreEvents = false
    /// How the time column writes time: day numbers, or timestamps that
    /// become calendar days in a time zone.
    public var time = EventTime()
    /// Where the events file keeps what the analysis needs; nil for the Lab table.
    public var mapping: ExportMapping?
    /// Metrics read from the events file's own events.
    public var eventMetrics: [EventMetric] = []
    /// The planned split by experiment, variant to weight: the sample ratio
    /// check's expectation when no scenario gives one.
    public var splits: [String: [String: Double]] = [:]
    /// Ratios, quantiles and winsorized amounts, beside the scenario's.
    public var derived = DerivedMetrics()
    /// Match the metrics' events whatever their case and separators
    /// (`NameFolding`): every spelling of a name counts as it.
    public var foldEventCase = false
    /// Pre-exposure covariates from the export's own events, named by the
    /// metric each adjusts (CUPED): the sum over the device's events before
    /// its first exposure to the experiment.
    public var covariates: [EventMetric] = []

    public init() {}
  }

  /// A metric counted from an export's own events, at or after each
  /// device's first exposure: a conversion (the device did the event) or,
  /// with a property, the sum of the property over the device's events.
  public struct EventMetric: Sendable, Equatable {
    public var name: String
    public var event: String
    public var property: String?

    public init(name: String, event: String, property: String? = nil) {
      self.name = name
      self.event = event
      self.property = property
    }
  }

  /// Rows of an export that count nowhere, as a real export has them.
  public struct LeftOut: Sendable, Equatable {
    /// Exposures and metric events without a unit (a null or empty id).
    public var withoutUnit = 0
    /// Rows whose deduplication fields repeat an earlier row's.
    public var duplicates = 0
    /// Exposure events that name no variant (the tool's "no variant" or "off").
    public var withoutVariant = 0
    /// Rows of other events: automatic events, screens, sessions.
    public var otherEvents = 0
    /// By experiment and variant, exposures that are no arm of it: a tool's
    /// own (`ExportMapping.nonArms`) or named by `--exclude-variant`.
    public var notArms: [String: [String: Int]] = [:]

    public init() {}
  }

  /// The document and the rows left out as malformed.
  public let document: ResultsDocument
  public let skippedRows: [(path: String, line: Int, reason: String)]
  /// What an export held that counts nowhere (all zero for the Lab table).
  public let leftOut: LeftOut
  /// Events a metric does not count whose names are spellings of its event's
  /// (without `Options.foldEventCase`): what the analysis warns of.
  public let otherSpellings: [OtherSpelling]

  /// A metric's event and the other spellings of its name the export holds.
  public struct OtherSpelling: Sendable, Equatable {
    /// The option as given, e.g. `--metric subscribed=subscription_started`.
    public var option: String
    public var event: String
    public var rows: Int
    /// The other spellings, with their rows, most rows first.
    public var others: [(name: String, rows: Int)]

    public static func == (left: Self, right: Self) -> Bool {
      left.option == right.option && left.event == right.event && left.rows == right.rows
        && left.others.elementsEqual(right.others) { $0.name == $1.name && $0.rows == $1.rows }
    }
  }
  /// Each experiment's baseline and why, by name.
  public let baselines: [String: BaselineChoice]

  /// - Parameter outcomesPath: the outcomes table, or nil for an analysis of
  ///   exposures alone (sample ratio and contamination, no metrics) or of
  ///   the events file's own metric events.
  public init(events eventsPath: String, outcomes outcomesPath: String?, name: String, options: Options) throws(AnalyticsTableError) {
    var reading = Reading()
    let lastDay = (options.scenario?.days ?? ScenarioLimits.days.upperBound) - 1
    var skipped: [(path: String, line: Int, reason: String)]
    // Beside the Lab table, whose reading leaves a core half idle, the outcomes are read at the same time.
    // (An export's metric events go into the same timed outcomes, so its outcomes are read after it.)
    let outcomesReadAhead = options.mapping == nil
      ? outcomesPath.map { OutcomesReadAhead(path: $0, options: options, lastDay: lastDay) } : nil
    // Whatever the events' reading ends in, the outcomes' thread is waited for.
    defer { _ = outcomesReadAhead?.wait() }
    if let mapping = options.mapping {
      skipped = try Self.readExport(eventsPath, mapping: mapping, options: options, lastDay: lastDay, into: &reading)
    } else {
      skipped = try Self.readLabTable(eventsPath, options: options, lastDay: lastDay, into: &reading)
    }
    if options.time.format != .day {
      // Calendar days become days of the run: day 0 is the start date, or the first event's day.
      let origin = options.time.start ?? reading.exposures.firstDay
      guard reading.exposures.lastDay - origin <= lastDay else {
        throw .spanTooLong(path: eventsPath, days: reading.exposures.lastDay - origin + 1, limit: lastDay + 1)
      }
      reading.exposures.shiftDays(by: -origin)
    }

    var outcomes = OutcomeLog(summing: options.outcomesAreEvents)
    if let outcomesReadAhead {
      var outcomesTable = try outcomesReadAhead.wait().get()
      let numbers = reading.devices.adopt(outcomesTable.devices)
      outcomesTable.outcomes.renumberDevices(numbers, count: reading.devices.count)
      outcomesTable.timed.renumberDevices(numbers)
      outcomes = outcomesTable.outcomes
      reading.timed = outcomesTable.timed
      skipped += outcomesTable.skipped
    } else if let outcomesPath {
      skipped += try Self.readOutcomes(
        outcomesPath, into: &outcomes, timed: &reading.timed, devices: &reading.devices, options: options, lastDay: lastDay)
    }
    // A scenario's metric that neither the outcomes nor the export's events give would read as 0 on
    // every device, and its report would then speak of a baseline of 0. (Without either, the
    // analysis is of exposures alone.)
    if let scenario = options.scenario, outcomesPath != nil || !options.eventMetrics.isEmpty {
      let given = outcomes.metrics + reading.timed.metrics
      if let absent = scenario.metrics.first(where: { !given.contains($0.name) }) {
        let fix = options.mapping == nil
          ? "add its rows to the outcomes table" : "give it with --metric \(absent.name)=EVENT[:PROPERTY]"
        throw .unknownMetric(
          option: "--scenario", metric: absent.name,
          reason: "is the scenario's, and no row of the tables gives it, so every device would count 0: \(fix)",
          known: given.sorted())
      }
    }
    reading.timed.group(deviceCount: reading.devices.count)

    let exposures = reading.exposures
    // An exclusion that left nothing out names a variant no exposure shows: a misspelling, not an arm removed.
    for (experiment, variants) in options.excludedVariants.sorted(by: { $0.key < $1.key }) {
      for variant in variants.sorted() where reading.leftOut.notArms[experiment]?[variant] == nil {
        let known = exposures.log(of: experiment)?.variants.names
        throw .unmatchedName(
          option: "--exclude-variant \(experiment)=\(variant)",
          reason: known.map { "no exposure of \(experiment) shows '\(variant)' (variants: \($0.joined(separator: ", ")))" }
            ?? "'\(experiment)' is not an experiment of the table (experiments: \(exposures.experimentOrder.joined(separator: ", ")))")
      }
    }
    for (experiment, baseline) in options.baselines.sorted(by: { $0.key < $1.key }) {
      guard let log = exposures.log(of: experiment) else {
        throw .unknownBaseline(experiment: experiment, variant: baseline, known: exposures.experimentOrder, isExperiment: false)
      }
      guard log.variants.existingNumber(of: baseline) != nil else {
        throw .unknownBaseline(experiment: experiment, variant: baseline, known: log.variants.names, isExperiment: true)
      }
    }
    for (experiment, split) in options.splits.sorted(by: { $0.key < $1.key }) {
      guard let log = exposures.log(of: experiment) else {
        throw .unknownSplit(experiment: experiment, reason: "is not an experiment of the table (experiments: \(exposures.experimentOrder.joined(separator: ", ")))")
      }
      let unplanned = log.variants.names.filter { split[$0] == nil }
      let unshown = split.keys.sorted().filter { log.variants.existingNumber(of: $0) == nil }
      if !unplanned.isEmpty || !unshown.isEmpty {
        throw .unknownSplit(
          experiment: experiment,
          reason: (unplanned.isEmpty ? "" : "the table shows \(unplanned.joined(separator: ", ")), which the split does not list")
            + (unplanned.isEmpty || unshown.isEmpty ? "" : "; ")
            + (unshown.isEmpty ? "" : "no exposure shows \(unshown.joined(separator: ", ")): every device missing from it is a sample ratio mismatch already"))
      }
    }
    skippedRows = skipped
    leftOut = reading.leftOut
    otherSpellings = reading.otherSpellings
    var baselines: [String: BaselineChoice] = [:]
    for experiment in exposures.experimentOrder {
      baselines[experiment] = BaselineChoice.choose(
        experiment: experiment, variants: exposures.log(of: experiment)!.variants.names,
        option: options.baselines[experiment], scenario: options.scenario, mapping: options.mapping)
    }
    self.baselines = baselines
    var document = try Self.document(
      name: name, exposures: exposures, outcomes: outcomes, timed: reading.timed, covariates: reading.covariates,
      deviceCount: reading.devices.countedDevices, baselines: baselines, options: options)
    document.missingProperties = reading.missingProperties
    self.document = document
  }

  /// What reading the tables gathers.
  struct Reading {
    var exposures = ExposureLog()
    var devices = DeviceNumbers()
    var timed = TimedOutcomes()
    var leftOut = LeftOut()
    /// By metric adjusted, the covariate's place in `timed.metrics`.
    var covariates: [String: Int] = [:]
    /// An export's sum metrics and their events without the property; nil for the Lab table.
    var missingProperties: [MissingPropertyCount]?
    /// An export's metric events and the other spellings of their names.
    var otherSpellings: [OtherSpelling] = []
  }

  /// A timestamp's instant, or why it is none (before the start date, or not of the format).
  static func instant(_ text: String, column: String, options: Options, lastDay: Int) throws(RowError) -> EventTime.Instant {
    guard let instant = options.time.instant(of: text) else {
      throw RowError(Self.timeProblem(text, column: column, options: options, lastDay: lastDay))
    }
    if let start = options.time.start, instant.day < start {
      throw RowError("\(column) '\(text)' is before the start date: pass an earlier --start, or leave it out to start at the first event")
    }
    return instant
  }

  /// Why a time field is not a time of the table's format, with the fix:
  /// the formats that would read it.
  static func timeProblem(_ text: String, column: String, options: Options, lastDay: Int) -> String {
    let readers = options.time.formats(reading: text).map { "--time \($0.rawValue)" }
    let fix = readers.isEmpty ? "" : "; it reads as " + readers.joined(separator: " or ")
    switch options.time.format {
    case .day:
      return "\(column) '\(text)' is not a whole number of days from 0 to \(lastDay)"
        + (options.scenario == nil ? " (ten years)" : ", the scenario's last day") + (readers.isEmpty ? "" : "; for timestamps pass \(readers[0])")
    case .iso8601: return "\(column) '\(text)' is not an ISO 8601 time such as 2026-11-24, 2026-11-24T09:30:00Z or 2026-11-24 09:30:28.000-05" + fix
    case .unix: return "\(column) '\(text)' is not a Unix time in seconds" + fix
    case .unixMilliseconds: return "\(column) '\(text)' is not a Unix time in milliseconds" + fix
    case .unixMicroseconds: return "\(column) '\(text)' is not a Unix time in microseconds" + fix
    }
  }

  /// An outcome's amount, or why it is none: not a number, or beyond the
  /// range the analysis keeps exact (as a scenario's amounts).
  static func amount(_ text: String, of field: String) throws(RowError) -> Double {
    guard isDecimal(text), let value = Double(text), value.isFinite else { throw RowError("\(field) '\(text)' is not a number") }
    guard abs(value) <= Metric.acceptedMeans.upperBound else {
      throw RowError("\(field) '\(text)' is beyond ±10¹⁵, the amounts the analysis keeps exact: scale the unit (cents to dollars, say)")
    }
    return value
  }

  /// `amount(_:of:)` of a field's bytes, read in place: a decimal of up to
  /// 63 bytes goes to `strtod`, the correctly rounded reader `Double(_:)`
  /// calls, without making a string; anything else, and every error, as text.
  static func amount(_ field: UnsafeBufferPointer<UInt8>, of name: String) throws(RowError) -> Double {
    let limit = 64
    if field.count < limit, isDecimal(field) {
      let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: limit) { text -> Double? in
        UnsafeMutableRawBufferPointer(text).copyMemory(from: UnsafeRawBufferPointer(field))
        text[field.count] = 0
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(text.baseAddress!, &end)
        // Read to its end, or the C library reads decimals another way: then as text.
        return end == text.baseAddress! + field.count ? value : nil
      }
      if let value, value.isFinite, abs(value) <= Metric.acceptedMeans.upperBound { return value }
    }
    return try amount(String(decoding: field, as: UTF8.self), of: name)
  }

  /// Whether `text` is a number as the tools write one: an optional sign,
  /// decimal digits with an optional point, an optional exponent. Not the
  /// hexadecimal floats, "inf" or "nan" that `Double(_:)` also reads, which
  /// no export means as an amount ("0x1p10" is not 1,024).
  static func isDecimal(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isDecimal($0) }
  }

  static func isDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    func skipSign() {
      if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) { index += 1 }
    }
    func digits() -> Int {
      let start = index
      while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") { index += 1 }
      return index - start
    }
    skipSign()
    var mantissa = digits()
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      mantissa += digits()
    }
    guard mantissa > 0 else { return false }
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      skipSign()
      guard digits() > 0 else { return false }
    }
    return index == bytes.count
  }
  /// The first two of `names` (distinct as bytes, as the tables number
  /// them) that Swift's strings take for one, being canonically equivalent.
  static func normalizationClash(in names: [String]) -> (first: String, second: String)? {
    var seen: [String: String] = [:]
    for name in names {
      if let earlier = seen[name], Array(earlier.utf8) != Array(name.utf8) { return (earlier, name) }
      if seen[name] == nil { seen[name] = name }
    }
    return nil
  }

  private static func document(
    name: String, exposures: ExposureLog, outcomes: OutcomeLog, timed: TimedOutcomes, covariates: [String: Int],
    deviceCount: Int, baselines: [String: BaselineChoice], options: Options
  ) throws(AnalyticsTableError) -> ResultsDocument {
    let scenario = options.scenario
    // The scenario's metrics, or the events' own in the order given; then the tables' others.
    let named = scenario.map { $0.metrics.map(\.name) } ?? options.eventMetrics.map(\.name)
    let covariateSlots = Set(covariates.values)
    let timedMetrics = timed.metrics.indices.filter { !covariateSlots.contains($0) }.map { timed.metrics[$0] }
    let metricNames = named + Set(outcomes.metrics + timedMetrics).subtracting(named).sorted()
    let timedIndex = metricNames.map { timed.metrics.firstIndex(of: $0) }
    let isConversion = metricNames.enumerated().map { index, metric in
      options.conversionMetrics[metric]
        ?? scenario?.metrics.first { $0.name == metric }.map { $0.kind == .conversion }
        ?? options.eventMetrics.first { $0.name == metric }.map { $0.property == nil }
        ?? (outcomes.isBinary(metric) && timedIndex[index].map(timed.isBinary) ?? true)
    }
    // Events of a conversion metric: a device with any counts once.
    let capsAtOne = metricNames.indices.map { isConversion[$0] && (options.outcomesAreEvents || timedIndex[$0] != nil) }
    var derived = scenario.map(DerivedMetrics.init(scenario:)) ?? DerivedMetrics()
    derived.ratios += options.derived.ratios.filter { ratio in !derived.ratios.contains { $0.name == ratio.name } }
    derived.quantiles.merge(options.derived.quantiles) { $1 }
    derived.winsorize.merge(options.derived.winsorize) { $1 }
    var unknown = derived.unknownMetrics(among: metricNames, isConversion: isConversion)
    unknown += covariates.keys.sorted().filter { !metricNames.contains($0) }.map { ("--covariate", $0, "is not a metric of the analysis") }
    if let first = unknown.first {
      throw .unknownMetric(option: first.option, metric: first.metric, reason: first.reason, known: metricNames)
    }
    let covariateIndex = metricNames.map { covariates[$0] }
    let days = max(exposures.lastDay + 1, scenario?.days ?? 0)
    // Given values: the finest grid on which each metric's largest still fits.
    let stepExponents = metricNames.indices.map { index in
      Moments.stepExponent(
        forLargest: outcomes.largestMagnitude(of: metricNames[index]) + (timedIndex[index].map { timed.largest[$0] } ?? 0))
    }
    let scenarioOrder = scenario.map(ExperimentOrder.init)
    var experimentNames = scenarioOrder?.experimentNames.filter { exposures.log(of: $0) != nil } ?? []
    experimentNames += exposures.experimentOrder.filter { !experimentNames.contains($0) }

    if let clash = Self.normalizationClash(in: experimentNames) {
      throw .ambiguousNames(kind: "experiments", first: clash.first, second: clash.second)
    }
    for experimentName in experimentNames {
      if let clash = Self.normalizationClash(in: exposures.log(of: experimentName)!.variants.names) {
        throw .ambiguousNames(kind: "variants of \(experimentName)", first: clash.first, second: clash.second)
      }
    }
    if let clash = Self.normalizationClash(in: outcomes.metrics + timed.metrics) {
      throw .ambiguousNames(kind: "metrics", first: clash.first, second: clash.second)
    }
    // Each experiment's counts on a core of its own: they share nothing but what they read.
    let derivedMetrics = derived
    let experiments = experimentNames.concurrentMap { experimentName -> ExperimentResult in
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
      let baselineChoice = baselines[experimentName]!, baseline = baselineChoice.variant
      let place = Dictionary(uniqueKeysWithValues: variantNames.enumerated().map { ($1, $0) })
      var variants = Array(repeating: VariantTally(stepExponents: stepExponents), count: variantNames.count)
      var mixed = 0
      var raw = Array(repeating: Array(repeating: [Double](), count: metricNames.count), count: variantNames.count)
      var rawCovariates = raw
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
      let plannedSplit = options.splits[experimentName]
      var expected: [Double]? = byVersion.isEmpty || plannedSplit != nil ? nil : Array(repeating: 0, count: variantNames.count)
      // From the log's variant places to the report's.
      let places = log.variants.names.map { place[$0]! }
      let outcomeColumns = metricNames.map { outcomes.index(of: $0) }
      var after = Array(repeating: 0.0, count: timed.metrics.count)
      var before = after
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
        if !timed.isEmpty {
          for metric in after.indices {
            after[metric] = 0
            before[metric] = 0
          }
          timed.sum(device: device, splitAt: firstShown.time, after: &after, before: &before)
        }
        for (index, column) in outcomeColumns.enumerated() {
          let sum = (column.map { outcomes.value(device: device, metric: $0) } ?? 0) + (timedIndex[index].map { after[$0] } ?? 0)
          let value = capsAtOne[index] ? min(sum, 1) : sum
          variants[first].firstExposure[index].add(value, isConversion: isConversion[index])
          if pure { variants[first].uncontaminated[index].add(value, isConversion: isConversion[index]) }
          if pure || !exclude {
            raw[first][index].append(value)
            if let slot = covariateIndex[index] { rawCovariates[first][index].append(before[slot]) }
          }
          if pure || !exclude { cohorts[firstDay][first][index].add(value, isConversion: isConversion[index]) }
        }
      }
      if let plannedSplit {
        // The devices counted, shared out by the planned weights.
        // Weights summed in name order: a dictionary's order changes from run to run, and so would the last bit.
        let total = Double(variants.map(\.firstExposed).reduce(0, +))
        let weights = plannedSplit.keys.sorted().reduce(0) { $0 + plannedSplit[$1]! }
        expected = variantNames.map { total * plannedSplit[$0]! / weights }
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
      // Each covariate's grid fits its largest magnitude over the experiment's counted devices.
      let largestCovariate = metricNames.indices.map { metric in
        rawCovariates.map { $0[metric].map(abs).max() ?? 0 }.max() ?? 0
      }
      var variantResults = variantNames.enumerated().map { index, variantName in
          let counted = exclude ? variants[index].uncontaminated : variants[index].firstExposure
          let weight = definitions.last { $0.variantIndex(named: variantName) != nil }
            .map { $0.variants[$0.variantIndex(named: variantName)!].weight }
          return VariantResult(
            name: variantName, weight: definitions.isEmpty ? nil : weight ?? 0, exposed: variants[index].exposed,
            contaminated: variants[index].contaminated, firstExposed: variants[index].firstExposed,
            expectedFirstExposed: expected?[index],
            metrics: metricNames.indices.map { metric in
              var summary = summary(metricNames[metric], isConversion[metric], counted[metric])
              if covariateIndex[metric] != nil {
                summary.covariate = DerivedMetrics.covariate(
                  rawCovariates[index][metric], largest: largestCovariate[metric], outcomes: raw[index][metric],
                  outcomeStepExponent: stepExponents[metric])
              }
              return summary
            })
      }
      derivedMetrics.apply(to: &variantResults, metrics: metricNames, stepExponents: stepExponents, raw: raw)
      var result = ExperimentResult(
        name: experimentName, source: definitions.isEmpty ? "events" : "local", baseline: baseline,
        variants: variantResults,
        mixedDevices: mixed, transitions: [], dailyNewExposures: dailyNewExposures, dailyMetrics: dailyMetrics, srm: nil,
        analysis: [])
      result.rawOutcomes = raw
      result.baselineReason = baselineChoice.why
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
