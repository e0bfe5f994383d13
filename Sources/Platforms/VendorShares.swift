import Foundation
import Results
import ScenarioFormat

/// Shares laid out in a vendor's whole steps, and the other pieces of
/// arithmetic the plug-ins' file writers share.
enum VendorShares {
  /// Integer boundaries out of `steps`: `shares` (summing to at most 1) laid
  /// end to end from 0, each rounded to the nearest step, so the ranges are
  /// contiguous and the last ends where the shares do.
  static func boundaries(_ shares: [Double], steps: Int) -> [Int] {
    var cumulative = 0.0
    return shares.map { share in
      cumulative += share
      return Int((min(cumulative, 1) * Double(steps)).rounded())
    }
  }

  /// The variations' shares of the whole population: traffic × weight / total.
  static func shares(_ experiment: ServiceExperiment) -> [Double] {
    let total = experiment.variations.reduce(0) { $0 + $1.weight }
    return experiment.variations.map { total > 0 ? experiment.traffic * $0.weight / total : 0 }
  }

  /// The variations' shares of the experiment's traffic: weight / total.
  static func split(_ experiment: ServiceExperiment) -> [Double] {
    let total = experiment.variations.reduce(0) { $0 + $1.weight }
    return experiment.variations.map { total > 0 ? $0.weight / total : 0 }
  }

  /// The salt, seed or group id an experiment hashes with: its name, and a
  /// new one for each new bucket version.
  static func salt(_ experiment: ServiceExperiment) -> String {
    experiment.bucketVersion == 0 ? experiment.name : "\(experiment.name).v\(experiment.bucketVersion)"
  }

  /// A vendor file written on one line, as the SDK port reads it.
  static func data(_ json: OrderedJSON) -> Data {
    Data(json.renderedOnOneLine().utf8)
  }
}
