import Bucketing
import Foundation
import Platforms
import ScenarioFormat

/// The hash-bucketed service's timeline as the device loop reads it: on which
/// day each revision of the dashboard is in force, what each revision does to
/// each experiment, and the attributes a device sends. The revisions
/// themselves are written in the vendor's own form by the platform's plug-in
/// (`Platform.configuration`), so that the Bucketing library decides every
/// launch as the vendor's SDK would.
struct ServiceTables {
  /// The platform's plug-in; nil without a service.
  let platform: (any Platform.Type)?
  /// Service experiments, numbered from 0; `globalID[s]` is the plan's number.
  let count: Int
  let globalID: [Int]
  let names: [String]
  let sticky: Bool
  let reinstallShare: Double
  /// `ServicePlan.accessBeforeDownload`.
  let accessBeforeDownload: Double
  /// The platform's feature flags, by name (`ServicePlan.flags`).
  let flagNames: [String]
  /// Whether devices launch against the service: it has experiments or flags.
  var isUsed: Bool { count > 0 || !flagNames.isEmpty }
  let fetch: FetchModel
  /// The revision in force on each day, -1 before the first change.
  let revisionOfDay: [Int]
  let revisionDays: [Int]
  /// Every revision, as the plug-in writes it.
  let revisions: [DashboardRevision]
  /// By service experiment: the plan's variant number of each variation name.
  let variantIDs: [[String: Int]]
  /// By revision, service experiment and plan variant: the share of the
  /// bucketed users the revision sends to the variant, for the split check.
  let shares: [[[Double]]]
  /// By revision and service experiment: whether the revision's changes are about it.
  let touches: [[Bool]]
  /// The revision each app version bundles: the one in force on its release day.
  let bundledRevision: [Int]
  /// By segment and version: the attributes a device sends.
  let attributes: [[[String: AttributeValue]]]
  let segmentNames: [String]

  /// The bundle identifier the simulated app sends.
  static let bundleIdentifier = "com.example.labbench"

  init(plan: SimulationPlan) {
    let scenario = plan.scenario
    let service = scenario.service
    platform = plan.platform
    globalID = Array(plan.serviceExperiments)
    count = globalID.count
    names = globalID.map { plan.experimentNames[$0] }
    sticky = service?.sticky ?? false
    reinstallShare = service?.reinstallShare ?? 0
    accessBeforeDownload = service?.accessBeforeDownload ?? 0
    flagNames = service?.flags.map(\.name) ?? []
    fetch = service?.fetch ?? .reliable
    let planRevisions = service?.revisions ?? []
    var revisionOfDay = Array(repeating: -1, count: scenario.days)
    for (index, revision) in planRevisions.enumerated() where revision.day < scenario.days {
      for day in revision.day..<scenario.days { revisionOfDay[day] = index }
    }
    self.revisionOfDay = revisionOfDay
    revisionDays = planRevisions.map(\.day)
    revisions = service.map(DashboardRevision.revisions) ?? []
    variantIDs = globalID.map { id in Dictionary(uniqueKeysWithValues: plan.variantNames[id].enumerated().map { ($1, $0) }) }
    let names = self.names
    let globalID = self.globalID
    shares = planRevisions.map { revision in
      let running = Dictionary(revision.experiments.map { ($0.name, $0) }) { first, _ in first }
      return zip(globalID, names).map { id, name in
        let variants = plan.variantNames[id]
        guard let experiment = running[name] else {
          return Array(repeating: 0, count: variants.count)
        }
        if let winner = experiment.winner { return variants.map { $0 == winner ? 1 : 0 } }
        let total = experiment.variations.reduce(0) { $0 + $1.weight }
        return variants.map { variant in (experiment.variations.first { $0.name == variant }?.weight ?? 0) / total }
      }
    }
    var touchedOnDay: [Int: Set<String>] = [:]
    for change in service?.changes ?? [] { touchedOnDay[change.day, default: []].insert(change.experiment) }
    touches = planRevisions.map { revision in
      names.map { touchedOnDay[revision.day]?.contains($0) ?? false }
    }
    bundledRevision = scenario.versions.map { $0.releaseDay < scenario.days ? revisionOfDay[$0.releaseDay] : -1 }
    segmentNames = scenario.population.segments.map(\.name)
    attributes = scenario.population.segments.map { segment in
      scenario.versions.map { version in
        var attributes = AppAttributes(bundleIdentifier: Self.bundleIdentifier, shortVersion: version.version).attributes
        for (name, value) in segment.attributes { attributes[name] = .string(value) }
        return attributes
      }
    }
  }

  /// A device's session on the platform, its configurations and contexts
  /// built once for the batch; nil without a service.
  func session() -> PlatformSession? {
    platform?.session(revisions: revisions, attributes: attributes, sticky: sticky)
  }
}
