import Lab

/// A plan to try on a simulated population: the app versions a team intends to
/// ship, each with the local experiments its binary carries, and the devices
/// that will run them. docs/scenarios.md documents every field.
public struct Scenario: Hashable, Sendable {
  public var name: String
  public var description: String
  /// The seed every random draw of a run derives from.
  public var seed: UInt64
  public var devices: Int
  public var days: Int
  /// How names that break Lab's conventions are treated.
  public var naming: NamingPolicy
  /// The versions in release order; the first is released on day 0.
  public var versions: [AppVersion]
}

/// One release of the app.
public struct AppVersion: Hashable, Sendable {
  /// The version string, e.g. `2.0`.
  public var version: String
  /// The day of the run on which the version is released.
  public var releaseDay: Int
  /// How devices move to this version after its release.
  public var adoption: Adoption
  /// The launch of this version, counted from 1 on each device, on which it
  /// calls stabilize; `nil` when it never does.
  public var stabilizeOnLaunch: Int?
  /// The local experiments compiled into this version.
  public var experiments: [Experiment]
}

/// How devices upgrade to a version once it is released.
public struct Adoption: Hashable, Sendable {
  /// The mean of the exponential delay, in days, between release and upgrade.
  public var meanDelayDays: Double
  /// The share of devices that never upgrade to this version.
  public var neverUpgradeShare: Double

  /// Everyone upgrades on release day: the first version, which every device installs.
  public static let immediate = Adoption(meanDelayDays: 0, neverUpgradeShare: 0)
}
