// SPDX-License-Identifier: Apache-2.0

/// devtodev's waits as the SDK takes them (seed 004): "The
/// DTDRemoteConfig.remoteConfigWaiting and
/// DTDRemoteConfig.groupDefinitionWaiting values can be set only prior to
/// SDK initialization!" A wait the app sets after `initializeWithAbTest` is
/// not used at that launch; the SDK keeps what it had, its defaults when the
/// app set nothing before. Every app start initializes anew, so an app that
/// always sets its waits too late runs on the defaults at every launch.
public struct DevToDevInitialization: Hashable, Sendable {
  /// The waits the SDK uses at this launch.
  public private(set) var settings = DevToDevHandshake.Settings()
  public private(set) var isInitialized = false

  public init() {}

  /// Sets the wait for the configuration; returns whether the SDK took it.
  @discardableResult
  public mutating func setRemoteConfigWaiting(_ seconds: Double?) -> Bool {
    guard !isInitialized else { return false }
    settings.remoteConfigWaiting = seconds
    return true
  }

  /// Sets the wait for a group; returns whether the SDK took it.
  @discardableResult
  public mutating func setGroupDefinitionWaiting(_ seconds: Double) -> Bool {
    guard !isInitialized else { return false }
    settings.groupDefinitionWaiting = seconds
    return true
  }

  /// `DTDAnalytics.initializeWithAbTest`: the waits set so far are the ones used.
  public mutating func initializeWithAbTest() {
    isInitialized = true
  }

  /// The waits in force when the app sets `wanted` before or after
  /// initializing: the same at every launch, as every launch initializes.
  public static func settings(_ wanted: DevToDevHandshake.Settings, setBeforeInitialization: Bool)
    -> DevToDevHandshake.Settings
  {
    var sdk = DevToDevInitialization()
    if !setBeforeInitialization { sdk.initializeWithAbTest() }
    sdk.setRemoteConfigWaiting(wanted.remoteConfigWaiting)
    sdk.setGroupDefinitionWaiting(wanted.groupDefinitionWaiting)
    if setBeforeInitialization { sdk.initializeWithAbTest() }
    return sdk.settings
  }
}
