import Foundation
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
