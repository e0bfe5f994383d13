// SPDX-License-Identifier: Apache-2.0

/// One app session's view of Optimizely, as the seed's integration describes
/// it (../shared/seeds/001): the datafile bundled in the app and replaced when
/// a download succeeds (at boot and periodically), A/B tests activated on
/// first access and cached in memory until the app restarts ("experiments
/// should never return a changed activation"), feature flags that "always
/// return the latest value", and a feature query that yields false on error
/// as well as when the flag is off. An optional user profile store makes
/// bucketed decisions sticky across restarts and datafile changes.
public struct OptimizelyClient: Sendable {
  public let userID: String
  /// The attributes sent with every decision: the app's own (`AppAttributes`)
  /// and whatever the app adds.
  public var attributes: [String: AttributeValue]
  public private(set) var service: OptimizelyDecisionService?
  /// Variation ids by experiment id, as a user profile store keeps them; the
  /// app persists it. `nil` when the app uses no store.
  public private(set) var profile: [String: String]?
  /// This session's activations by experiment key (`nil`: not in the experiment).
  public private(set) var activations: [String: String?] = [:]

  /// - Parameters:
  ///   - datafile: the datafile bundled in the app, if it decodes.
  ///   - profile: the stored user profile, or `nil` to run without a store.
  public init(userID: String, attributes: [String: AttributeValue], datafile: OptimizelyDatafile?, profile: [String: String]?) {
    self.userID = userID
    self.attributes = attributes
    self.service = datafile.map(OptimizelyDecisionService.init(datafile:))
    self.profile = profile
  }

  /// The variation key of an A/B test: decided at the first access of this
  /// session and then returned unchanged, whatever datafile arrives.
  public mutating func variation(of experiment: String) -> String? {
    if let cached = activations[experiment] { return cached }
    let decided = service.flatMap { service in
      service.decide(experiment: experiment, userID: userID, attributes: attributes, profile: &profile).variation?.key
    }
    activations[experiment] = .some(decided)
    return decided
  }

  /// Whether a feature flag is on with the latest datafile: false when it is
  /// off, and false when anything goes wrong (no datafile, no such flag).
  public mutating func isFeatureEnabled(_ feature: String) -> Bool {
    guard let service else { return false }
    return service.feature(feature, userID: userID, attributes: attributes, profile: &profile)?.isEnabled ?? false
  }

  /// A feature variable's value with the latest datafile, `nil` on error.
  public mutating func variable(_ variable: String, of feature: String) -> String? {
    guard let service else { return nil }
    return service.feature(feature, userID: userID, attributes: attributes, profile: &profile)?.variables[variable]
  }

  /// A downloaded datafile replaces the current one; this session's
  /// activations stay as they were.
  public mutating func update(datafile: OptimizelyDatafile) {
    service = OptimizelyDecisionService(datafile: datafile)
  }

  /// The app restarted: activations are forgotten, the profile is kept.
  public mutating func restart() {
    activations = [:]
  }
}

/// The attributes the seed's integration always sends: "The bundle
/// identifier, short version string, major version number, minor version
/// number and patch version number". The names are the bench's (the seed
/// does not give them); audiences compare `app_version` with the semver
/// match types.
public struct AppAttributes: Sendable, Hashable {
  public var bundleIdentifier: String
  public var shortVersion: String

  public init(bundleIdentifier: String, shortVersion: String) {
    self.bundleIdentifier = bundleIdentifier
    self.shortVersion = shortVersion
  }

  /// `bundle_id`, `app_version`, and `app_major`, `app_minor`, `app_patch`
  /// as numbers (0 for a missing part).
  public var attributes: [String: AttributeValue] {
    let parts = shortVersion.split(separator: ".").map { Double($0) ?? 0 }
    func part(_ index: Int) -> AttributeValue { .number(index < parts.count ? parts[index] : 0) }
    return [
      "bundle_id": .string(bundleIdentifier), "app_version": .string(shortVersion),
      "app_major": part(0), "app_minor": part(1), "app_patch": part(2),
    ]
  }
}
