import AnalyticsTable
import ArgumentParser
import Foundation
import ScenarioFormat

/// The options of `bench analyze` that describe an export and what a
/// scenario would otherwise give: read and checked here, so that each
/// mistake is refused with the option's name before any table is read.
extension Bench.Analyze {
  /// The mapping of `--map` or of the preset; nil for the Lab table.
  func exportMapping() throws -> ExportMapping? {
    if let mapFile {
      guard preset == ExportPreset.lab.rawValue else {
        throw ValidationError("--map describes the export itself: leave --preset out.")
      }
      return try ExportOptionReading.mapping(file: mapFile)
    }
    guard let chosen = ExportPreset(rawValue: preset) else {
      throw ValidationError(
        "--preset takes \(ExportPreset.allCases.map(\.rawValue).joined(separator: ", ")), not '\(preset)'; for another tool describe its export with --map FILE.json.")
    }
    return chosen.mapping
  }

  /// `--metric NAME=EVENT[:PROPERTY]` (or `--covariate`'s), each name once.
  func parsedEventMetrics(_ texts: [String]? = nil, option: String = "--metric") throws -> [EventsAnalysis.EventMetric] {
    try ExportOptionReading.eventMetrics(texts ?? eventMetrics, option: option)
  }

  /// `--ratio`, `--quantiles` and `--winsorize`, in the scenario format's ranges.
  func parsedDerivedMetrics() throws -> DerivedMetrics {
    var derived = DerivedMetrics()
    for text in ratios {
      guard let (name, fraction) = Self.pair(text), let slash = fraction.firstIndex(of: "/"),
        slash != fraction.startIndex, fraction.index(after: slash) != fraction.endIndex
      else { throw ValidationError("--ratio takes NAME=NUMERATOR/DENOMINATOR (two metrics), not '\(text)'.") }
      guard !derived.ratios.contains(where: { $0.name == name }) else { throw ValidationError("--ratio \(name) is given twice.") }
      derived.ratios.append(RatioMetric(
        name: name, numerator: String(fraction[..<slash]), denominator: String(fraction[fraction.index(after: slash)...])))
    }
    for text in quantiles {
      let usage = "--quantiles takes METRIC=Q,Q (up to \(ScenarioLimits.quantiles.upperBound), each from 0.01 to 0.99), not '\(text)'."
      guard let (metric, list) = Self.pair(text) else { throw ValidationError(usage) }
      let levels = list.split(separator: ",", omittingEmptySubsequences: false).map { NumberText.decimal($0) }
      guard levels.allSatisfy({ $0.map(ScenarioLimits.quantile.contains) ?? false }),
        ScenarioLimits.quantiles.contains(levels.count), Set(levels).count == levels.count
      else { throw ValidationError(usage) }
      derived.quantiles[metric] = levels.map { $0! }.sorted()
    }
    for text in winsorize {
      guard let (metric, level) = Self.pair(text), let percentile = NumberText.decimal(level), ScenarioLimits.winsorize.contains(percentile) else {
        throw ValidationError("--winsorize takes METRIC=PERCENTILE, from 0.5 to 0.999 (e.g. revenue=0.99), not '\(text)'.")
      }
      derived.winsorize[metric] = percentile
    }
    return derived
  }

  /// `--split EXPERIMENT=A:1,B:1` by experiment.
  func parsedSplits() throws -> [String: [String: Double]] {
    var parsed: [String: [String: Double]] = [:]
    for text in splits {
      let usage = "--split takes EXPERIMENT=VARIANT:WEIGHT,VARIANT:WEIGHT (weights from above 0 to 10⁹), not '\(text)'."
      guard let (experiment, list) = Self.pair(text), parsed[experiment] == nil else {
        throw ValidationError(Self.pair(text) == nil ? usage : "--split \(Self.pair(text)!.0) is given twice.")
      }
      var split: [String: Double] = [:]
      for part in list.split(separator: ",", omittingEmptySubsequences: false) {
        guard let colon = part.lastIndex(of: ":"), colon != part.startIndex,
          // Bounded so that the weights' sum, and each expected count, stays finite.
          let weight = NumberText.decimal(part[part.index(after: colon)...]), weight > 0, weight <= 1e9,
          split.updateValue(weight, forKey: String(part[..<colon])) == nil
        else { throw ValidationError(usage) }
      }
      guard split.count >= 2 else { throw ValidationError("--split \(experiment): a split names at least two variants.") }
      parsed[experiment] = split
    }
    return parsed
  }

  /// The rows an export held that count nowhere, as a sentence; "" when none.
  static func describe(_ leftOut: EventsAnalysis.LeftOut) -> String {
    func count(_ number: Int, _ singular: String, _ plural: String) -> String? {
      number == 0 ? nil : "\(number) \(number == 1 ? singular : plural)"
    }
    let notArms = leftOut.notArms.sorted { $0.key < $1.key }.map { experiment, variants in
      let counts = variants.sorted { $0.key < $1.key }.map { "\($0.key) \(CountText.grouped($0.value))" }
      let total = variants.values.reduce(0, +)
      return "\(total) exposure\(total == 1 ? "" : "s") of \(experiment) that \(total == 1 ? "is" : "are") no arm (\(counts.joined(separator: ", ")))"
    }
    return ([
      count(leftOut.withoutUnit, "row without a unit id", "rows without a unit id"),
      count(leftOut.duplicates, "duplicated row", "duplicated rows"),
      count(leftOut.withoutVariant, "exposure naming no variant", "exposures naming no variant"),
      count(leftOut.otherEvents, "row of other events", "rows of other events"),
    ].compactMap { $0 } + notArms).joined(separator: ", ")
  }
}
