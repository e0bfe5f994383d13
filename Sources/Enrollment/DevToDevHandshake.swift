// SPDX-License-Identifier: Apache-2.0

import Lab

/// devtodev's A/B test enrollment at one app launch (seed 004), as a
/// sequence of the SDK's callbacks and the app's decision.
///
/// After initialization the SDK waits for the A/B test configuration
/// (`remoteConfigWaiting`, unlimited when `nil`; on time-out `onReceived`
/// reports a failure and A/B testing is off until the next initialization),
/// then for a group (`groupDefinitionWaiting`, 10 s by default; on time-out
/// the test is cancelled until the next app start), calls
/// `onPrepareToChange`, and waits at most 30 s for the server's offer. An
/// offer in time calls `onChanged` with success and the app decides:
/// `applyConfig` enrolls the device, `resetConfig` refuses the test, which is
/// then unavailable until the next initialization. The server may refuse the
/// device instead, and a switch to another user while the offer is awaited
/// cancels it; both call `onChanged` with a failure. Losing the connection or
/// the focus (the app going to the background) cancels the test until the
/// next launch. A device enrolled at an earlier launch gets its test again at
/// initialization.
public enum DevToDevHandshake {
  public struct Settings: Hashable, Sendable {
    /// `nil`: wait for the configuration without limit (the seed's default).
    public var remoteConfigWaiting: Double?
    public var groupDefinitionWaiting: Double
    /// The SDK's fixed wait for the server's offer.
    public static let offerWaiting = 30.0

    public init(remoteConfigWaiting: Double? = nil, groupDefinitionWaiting: Double = 10) {
      self.remoteConfigWaiting = remoteConfigWaiting
      self.groupDefinitionWaiting = groupDefinitionWaiting
    }
  }

  /// How long each step of this launch takes, and what interrupts it.
  public struct Timing: Hashable, Sendable {
    /// Seconds until the configuration arrives; `nil` when it never does.
    public var configuration: Double?
    /// Whether the configuration holds a test the device qualifies for.
    public var testFound: Bool
    /// Seconds until a group is defined, after the configuration.
    public var groupDefinition: Double
    /// Seconds until the server's offer, after `onPrepareToChange`; `nil`
    /// when the server refuses the device.
    public var offer: Double?
    /// Seconds after initialization at which the app goes to the
    /// background or loses the connection; `nil` when it does not.
    public var interruption: Double?
    /// Whether the app switches to another user while the offer is awaited
    /// (after `onPrepareToChange`, before the offer and any interruption).
    public var userChangesDuringOffer: Bool

    public init(
      configuration: Double?, testFound: Bool, groupDefinition: Double, offer: Double?, interruption: Double?,
      userChangesDuringOffer: Bool = false
    ) {
      self.configuration = configuration
      self.testFound = testFound
      self.groupDefinition = groupDefinition
      self.offer = offer
      self.interruption = interruption
      self.userChangesDuringOffer = userChangesDuringOffer
    }
  }

  /// The SDK's callbacks, in the order the app receives them.
  public enum Callback: Hashable, Sendable {
    case onReceived(ReceiveResult)
    case onPrepareToChange
    case onChanged(ChangeResult)
  }

  public enum ReceiveResult: String, Hashable, Sendable { case success, failure, empty }
  public enum ChangeResult: String, Hashable, Sendable { case success, failure }

  /// How a launch ended for the device, for the enrollment funnel.
  public enum Outcome: String, Hashable, Sendable, CaseIterable {
    /// The configuration did not arrive in time: A/B testing is off until the next initialization.
    case configurationTimedOut = "configuration timed out"
    /// No test for the device in the configuration.
    case noTest = "no test"
    /// No group in time: the test is cancelled until the next app start.
    case groupTimedOut = "group timed out"
    /// The server refused the device ("The Server refused to conduct the test").
    case serverRefused = "server refused"
    /// The offer came after 30 s, or never.
    case offerTimedOut = "offer timed out"
    /// The app switched to another user while the offer was awaited ("the
    /// user was changed. Offer has been canceled").
    case userChanged = "user changed"
    /// The app went to the background or lost the connection while waiting.
    case cancelled
    /// The app refused the offer (`resetConfig`).
    case refused
    /// The app accepted the offer (`applyConfig`): the device is enrolled.
    case applied
  }

  /// A switch of user on the device: "switch to a user who is not
  /// participating in the experiment" calls `onPrepareToChange`, and the
  /// defaults apply until that user goes through the handshake; "replacing
  /// the user with another user who previously started the test" also calls
  /// `onChanged` with success: that user's test is back, without a handshake.
  public static func switchUser(toUserWhoStartedTheTest started: Bool) -> [Callback] {
    started ? [.onPrepareToChange, .onChanged(.success)] : [.onPrepareToChange]
  }

  /// One launch: the callbacks and the outcome, given the timing and the
  /// app's decision on an offer.
  public static func launch(
    _ settings: Settings, timing: Timing, appliesOffer: Bool
  ) -> (callbacks: [Callback], outcome: Outcome) {
    let interruption = timing.interruption ?? .infinity
    guard let arrival = timing.configuration, arrival <= (settings.remoteConfigWaiting ?? .infinity) else {
      return ([.onReceived(.failure)], .configurationTimedOut)
    }
    guard arrival < interruption else { return ([], .cancelled) }
    guard timing.testFound else { return ([.onReceived(.empty)], .noTest) }
    var callbacks: [Callback] = [.onReceived(.success)]
    guard timing.groupDefinition <= settings.groupDefinitionWaiting else { return (callbacks, .groupTimedOut) }
    let prepared = arrival + timing.groupDefinition
    guard prepared < interruption else { return (callbacks, .cancelled) }
    callbacks.append(.onPrepareToChange)
    guard !timing.userChangesDuringOffer else { return (callbacks + [.onChanged(.failure)], .userChanged) }
    guard let offer = timing.offer else { return (callbacks + [.onChanged(.failure)], .serverRefused) }
    guard offer <= Settings.offerWaiting else { return (callbacks + [.onChanged(.failure)], .offerTimedOut) }
    guard prepared + offer < interruption else { return (callbacks + [.onChanged(.failure)], .cancelled) }
    return (callbacks + [.onChanged(.success)], appliesOffer ? .applied : .refused)
  }
}

/// devtodev's `DTDRemoteConfig` on one device across launches: the app's
/// defaults, the group's values once applied, and the flags that keep a
/// refused test away until the next initialization.
public struct DevToDevRemoteConfig: Sendable {
  public let defaults: [String: AssignmentValue]
  /// The group the device is enrolled in, once it applied an offer.
  public private(set) var group: String?
  private var groupValues: [String: AssignmentValue] = [:]

  public init(defaults: [String: AssignmentValue]) {
    self.defaults = defaults
  }

  /// The values the app uses: the defaults, overlaid by the group's values
  /// for the keys the defaults have ("SDK will not use new variable values
  /// that are not set in DTDRemoteConfig.defaults").
  public var config: [String: AssignmentValue] {
    defaults.merging(groupValues.filter { defaults[$0.key] != nil }) { $1 }
  }

  /// Of a test's `keys`, those the app can use: the ones the defaults have.
  public func usableKeys(_ keys: [String]) -> Set<String> {
    Set(keys.filter { defaults[$0] != nil })
  }

  /// `applyConfig()` after a successful offer: the device joins `group`.
  public mutating func apply(group: String, values: [String: AssignmentValue]) {
    self.group = group
    groupValues = values
  }
}
