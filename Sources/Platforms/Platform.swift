import Bucketing
import Foundation
import JSONDocument
import ScenarioFormat

/// A hash-bucketed experiment platform as the bench runs it: everything the
/// bench knows of one vendor beyond its SDK port in `Bucketing`, so that a new
/// platform is its `Bucketing` folder, one type conforming to this protocol
/// (added to `PlatformRegistry.standard`) and its rule page.
///
/// The simulation asks it to write each revision of a plan's dashboard as the
/// vendor's own configuration, to say who a device is in the SDK's terms, and
/// to decide a device's variation with what the app stores for the SDK;
/// `bench bucket` and `bench impact` ask it to read the vendor's file and
/// decide for ids. The requirements are static: a platform has no state of its
/// own, and a device's state is its `Store`.
public protocol Platform: Sendable {
  /// One revision of the dashboard, in the form the SDK port decides with.
  associatedtype Configuration: Sendable
  /// Who the SDK is asked about at a launch, in the platform's own terms.
  associatedtype Context: Sendable
  /// What the app stores on the device for the SDK (Optimizely's user
  /// profile, GrowthBook's sticky buckets, Statsig's kept values).
  associatedtype Store

  /// What a scenario and `bench compare` know of the platform.
  static var traits: PlatformTraits { get }

  /// `revision` written as the vendor's file and read back by the SDK port,
  /// so that a simulated launch runs the code `bench bucket` runs.
  static func configuration(_ revision: DashboardRevision) -> Configuration

  /// The context of a device with `attributes` (a segment's, on an app
  /// version), built once per segment and version, without the device's id.
  static func context(attributes: [String: AttributeValue]) -> Context

  /// `context` for the device whose id is `id`.
  static func context(_ context: Context, id: String) -> Context

  /// What a fresh install stores: empty, and nothing at all unless the app
  /// keeps decisions (`sticky`).
  static func store(sticky: Bool) -> Store

  /// The variation of `experiment` the SDK gives the device at a launch, nil
  /// for none; the SDK's decision is stored in `store` where the app keeps it.
  static func variation(
    of experiment: String, in configuration: Configuration, id: String, context: Context, store: inout Store
  ) -> String?

  /// Whether feature flag `flag` is on for the device, nil where the
  /// configuration lacks it; only for platforms whose traits have feature flags.
  static func isFlagOn(_ flag: String, in configuration: Configuration, id: String, context: Context) -> Bool?

  /// What `--config` holds for the platform, for help and errors.
  static var configurationName: String { get }

  /// Refuses `--attributes` the platform's context cannot hold, naming the
  /// member and the fix.
  static func checkAttributes(_ attributes: [String: JSONValue]) throws(PlatformInputError)

  // The session's entry points: each conformance's witness is the default
  // implementation (PlatformSession.swift) specialised for the platform, so
  // that a launch dispatches once and then runs the plug-in's code directly.
  // A platform does not implement them.

  /// Forgets what `device`, a `PlatformDevice` of this platform, stored.
  static func clearStore(of device: AnyObject)

  /// Every experiment decided for `device`, a `PlatformDevice` of this platform, at a launch.
  static func decideAll(
    _ device: AnyObject, revision: Int, id: String, segment: Int, version: Int, into variations: inout [String?])

  /// Whether each of `flags` is on for `device`, a `PlatformDevice` of this platform, at a launch.
  static func flagStates(
    _ flags: [String], device: AnyObject, revision: Int, id: String, segment: Int, version: Int, into states: inout [Bool?])

  /// Reads `config`, the vendor's own file unchanged, and decides every
  /// experiment and flag it holds for `ids`, as the SDK does on `now`. Without
  /// `flags`, rows that are not experiments are left out (`bench impact`).
  static func decisions(config: Data, ids: [String], attributes: BucketAttributes, flags: Bool, now: Date) throws
    -> BucketDecisions
}

extension Platform {
  public static func isFlagOn(_ flag: String, in configuration: Configuration, id: String, context: Context) -> Bool? {
    nil
  }

  public static func checkAttributes(_ attributes: [String: JSONValue]) throws(PlatformInputError) {}
}

extension Platform where Store == Void {
  public static func store(sticky: Bool) {}
}
