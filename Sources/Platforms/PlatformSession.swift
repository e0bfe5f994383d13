import Bucketing

/// One device's side of a platform during a simulated run, with the
/// platform's type hidden: the simulation's loop holds one per batch and
/// calls it once per launch that decides, so that each launch runs the
/// plug-in's own code, specialised for its types, for every experiment.
public protocol PlatformSession {
  /// Forgets what the device stored for the SDK: a new device, or a reinstall.
  mutating func clearStore()

  /// Every experiment of the catalog decided at a launch with revision
  /// `revision`, for the device `id` of `segment` running `version`: each
  /// experiment's variation, nil for none, in `variations` (one per experiment).
  mutating func decide(revision: Int, id: String, segment: Int, version: Int, into variations: inout [String?])

  /// Whether feature flag `flag` is on for the device, nil where revision
  /// `revision` lacks it.
  func isFlagOn(_ flag: String, revision: Int, id: String, segment: Int, version: Int) -> Bool?
}

/// `PlatformSession` for the platform `P`: its configuration of each
/// revision and its context of each segment and version, built once, and
/// what the device stores.
struct PlatformDevice<P: Platform>: PlatformSession {
  /// By revision.
  let configurations: [P.Configuration]
  /// By segment and version, without the device's id.
  let contexts: [[P.Context]]
  /// The catalog's experiments, in order.
  let experiments: [String]
  let sticky: Bool
  var store: P.Store

  init(revisions: [DashboardRevision], attributes: [[[String: AttributeValue]]], sticky: Bool) {
    configurations = revisions.map(P.configuration)
    contexts = attributes.map { $0.map { P.context(attributes: $0) } }
    experiments = revisions.first?.catalog.map(\.name) ?? []
    self.sticky = sticky
    store = P.store(sticky: sticky)
  }

  mutating func clearStore() {
    store = P.store(sticky: sticky)
  }

  mutating func decide(revision: Int, id: String, segment: Int, version: Int, into variations: inout [String?]) {
    let configuration = configurations[revision]
    let context = P.context(contexts[segment][version], id: id)
    for (index, experiment) in experiments.enumerated() {
      variations[index] = P.variation(of: experiment, in: configuration, id: id, context: context, store: &store)
    }
  }

  func isFlagOn(_ flag: String, revision: Int, id: String, segment: Int, version: Int) -> Bool? {
    P.isFlagOn(flag, in: configurations[revision], id: id, context: P.context(contexts[segment][version], id: id))
  }
}

extension Platform {
  /// A device's session on this platform over `revisions`, for devices whose
  /// attributes by segment and version are `attributes`.
  public static func session(revisions: [DashboardRevision], attributes: [[[String: AttributeValue]]], sticky: Bool)
    -> any PlatformSession
  {
    PlatformDevice<Self>(revisions: revisions, attributes: attributes, sticky: sticky)
  }
}
