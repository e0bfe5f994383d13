import Bucketing

/// One device's side of a platform during a simulated run, with the
/// platform's type hidden: the simulation's loop holds one per batch and
/// calls it once per launch that decides. The call goes through the
/// platform's own witness (`Platform.decideAll`), whose code the compiler
/// specialises for the platform's types, so that every experiment of a
/// launch runs the plug-in's code directly.
public struct PlatformSession {
  private let platform: any Platform.Type
  /// The platform's `PlatformDevice`: its configurations, contexts and store.
  private let device: AnyObject

  init(platform: any Platform.Type, device: AnyObject) {
    self.platform = platform
    self.device = device
  }

  /// Forgets what the device stored for the SDK: a new device, or a reinstall.
  public func clearStore() {
    platform.clearStore(of: device)
  }

  /// Every experiment of the catalog decided at a launch with revision
  /// `revision`, for the device `id` of `segment` running `version`: each
  /// experiment's variation, nil for none, in `variations` (one per experiment).
  public func decide(revision: Int, id: String, segment: Int, version: Int, into variations: inout [String?]) {
    platform.decideAll(device, revision: revision, id: id, segment: segment, version: version, into: &variations)
  }

  /// Whether each of `flags` is on for the device, nil where revision
  /// `revision` lacks it, in `states` (one per flag).
  public func flagStates(_ flags: [String], revision: Int, id: String, segment: Int, version: Int, into states: inout [Bool?]) {
    platform.flagStates(flags, device: device, revision: revision, id: id, segment: segment, version: version, into: &states)
  }
}

/// A device on the platform `P`: its configuration of each revision and its
/// context of each segment and version, built once per batch, and what the
/// device stores. A class, so that the session's calls reach it through one
/// reference of a type the platform's witnesses know.
final class PlatformDevice<P: Platform> {
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
}

extension Platform {
  /// A device's session on this platform over `revisions`, for devices whose
  /// attributes by segment and version are `attributes`.
  public static func session(revisions: [DashboardRevision], attributes: [[[String: AttributeValue]]], sticky: Bool)
    -> PlatformSession
  {
    PlatformSession(platform: self, device: PlatformDevice<Self>(revisions: revisions, attributes: attributes, sticky: sticky))
  }

  public static func clearStore(of device: AnyObject) {
    let device = unsafeDowncast(device, to: PlatformDevice<Self>.self)
    device.store = store(sticky: device.sticky)
  }

  public static func decideAll(
    _ device: AnyObject, revision: Int, id: String, segment: Int, version: Int, into variations: inout [String?]
  ) {
    let device = unsafeDowncast(device, to: PlatformDevice<Self>.self)
    let configuration = device.configurations[revision]
    let context = context(device.contexts[segment][version], id: id)
    for (index, experiment) in device.experiments.enumerated() {
      variations[index] = variation(of: experiment, in: configuration, id: id, context: context, store: &device.store)
    }
  }

  public static func flagStates(
    _ flags: [String], device: AnyObject, revision: Int, id: String, segment: Int, version: Int, into states: inout [Bool?]
  ) {
    let device = unsafeDowncast(device, to: PlatformDevice<Self>.self)
    let configuration = device.configurations[revision]
    let context = context(device.contexts[segment][version], id: id)
    for (index, flag) in flags.enumerated() {
      states[index] = isFlagOn(flag, in: configuration, id: id, context: context)
    }
  }
}
