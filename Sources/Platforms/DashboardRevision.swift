import Foundation
import Results
import ScenarioFormat

/// One revision of a plan's dashboard, as a platform's plug-in writes it in
/// the vendor's file: the experiments as they stand, with the plan's stable
/// numbering of every experiment and variation the service ever has (the ids
/// a vendor's file gives them) and the feature flags' shares.
public struct DashboardRevision: Sendable {
  /// The experiments as the dashboard has them from this revision on.
  public let experiments: [ServiceExperiment]
  /// Every experiment the service runs in the plan, in order of start, with
  /// every variation it ever has, in order.
  public let catalog: [Entry]
  /// The plan's feature flags, in order (`ServicePlan.flags`).
  public let flags: [String]
  /// Each flag's share of users in this revision, for the flags it has by then.
  public let flagShares: [String: Double]

  /// An experiment of the catalog.
  public struct Entry: Hashable, Sendable {
    public let name: String
    public let variations: [String]

    public init(name: String, variations: [String]) {
      self.name = name
      self.variations = variations
    }
  }

  public init(experiments: [ServiceExperiment], catalog: [Entry], flags: [String] = [], flagShares: [String: Double] = [:]) {
    self.experiments = experiments
    self.catalog = catalog
    self.flags = flags
    self.flagShares = flagShares
  }

  /// Every revision of `service`'s dashboard, in day order (`ServicePlan.revisions`).
  public static func revisions(of service: ServicePlan) -> [DashboardRevision] {
    let catalog = service.experimentVariations.map { Entry(name: $0.name, variations: $0.variations) }
    let flags = service.flags.map(\.name)
    return service.revisions.map { revision in
      DashboardRevision(experiments: revision.experiments, catalog: catalog, flags: flags, flagShares: revision.flags)
    }
  }

  /// The clock the platforms' time conditions read in a simulated run: fixed,
  /// so that a run is the same whenever it is made (the bench's
  /// configurations set no times).
  public static let clock = Date(timeIntervalSince1970: 0)
}

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
