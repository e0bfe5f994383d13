import Enrollment

/// When a device really enters one experiment of a scenario, whatever serves
/// it: the moment it counts as enrolled (the Apptimize wrapper's policy), a
/// condition it must meet first, and devtodev's enrollment handshake.
/// docs/scenarios.md documents the fields; docs/rules/ the rules.
public struct EnrollmentRule: Hashable, Sendable {
  public var policy: EnrollmentPolicy
  /// The chance, at each launch where the experiment is active, that the
  /// app's code checks the variation (what enrolls under the `check` policy).
  public var checkProbability: Double
  public var precondition: EnrollmentCondition?
  /// The chance, at each launch after the precondition held at an earlier
  /// one, that it stops holding for good (a free user who turns premium):
  /// from then the app no longer runs the experiment on the device.
  public var lapseChance: Double = 0
  public var handshake: HandshakeModel?

  public init(
    policy: EnrollmentPolicy, checkProbability: Double = 1, precondition: EnrollmentCondition? = nil,
    handshake: HandshakeModel? = nil
  ) {
    self.policy = policy
    self.checkProbability = checkProbability
    self.precondition = precondition
    self.handshake = handshake
  }
}

/// A condition that becomes true over a device's launches.
public enum EnrollmentCondition: Hashable, Sendable {
  /// At least `count` of the app's events, the device recording a Poisson
  /// number with mean `perLaunch` at each launch.
  case events(count: Int, perLaunch: Double)
  /// True from the first launch at which a draw with this chance succeeds.
  case launchChance(Double)
}

/// devtodev's handshake at each launch until the device is enrolled: the
/// SDK's waits, log-normal times for each step, the chance the app goes to
/// the background during it, the server's answers, and the app's decision on
/// an offer.
public struct HandshakeModel: Hashable, Sendable {
  /// The waits the app sets.
  public var settings: DevToDevHandshake.Settings
  /// Whether the app sets its waits before `initializeWithAbTest`; when it
  /// sets them after, the SDK runs on its defaults (`DevToDevInitialization`).
  public var waitsSetBeforeInitialization = true
  /// Median seconds until the configuration, the group and the offer.
  public var configurationSeconds: Double
  public var groupSeconds: Double
  public var offerSeconds: Double
  /// The standard deviation of each time's logarithm.
  public var latencySigma: Double
  /// The chance, at a launch, that the app goes to the background during the wait.
  public var backgroundChance: Double
  /// The chance that the app applies an offer rather than refusing it.
  public var applyChance: Double
  /// The chance, at a launch, that the configuration arrives with no experiment in it.
  public var emptyConfigurationChance: Double = 0
  /// The chance, at a launch, that the server refuses to conduct the test for the device.
  public var refusalChance: Double = 0
  /// The chance, at a launch, that the app switches to another user while the offer is awaited.
  public var userChangeChance: Double = 0
  /// Devices two users share, each going through the handshake for
  /// themselves: `nil` when every device has one user.
  public var sharedDevices: SharedDevices?

  /// The share of devices with a second user, and the chance, at each
  /// launch after the first where the experiment is active, that the other
  /// user is the one using the app.
  public struct SharedDevices: Hashable, Sendable {
    public var share: Double
    public var switchChance: Double

    public init(share: Double, switchChance: Double) {
      self.share = share
      self.switchChance = switchChance
    }
  }
  /// Per segment name, replacements of the background chance and of the
  /// median seconds until the configuration: a slow network, short sessions.
  public var segments: [String: SegmentHandshake] = [:]

  public struct SegmentHandshake: Hashable, Sendable {
    public var backgroundChance: Double?
    public var configurationSeconds: Double?

    public init(backgroundChance: Double?, configurationSeconds: Double?) {
      self.backgroundChance = backgroundChance
      self.configurationSeconds = configurationSeconds
    }
  }

  public init(
    settings: DevToDevHandshake.Settings, configurationSeconds: Double, groupSeconds: Double, offerSeconds: Double,
    latencySigma: Double, backgroundChance: Double, applyChance: Double
  ) {
    self.settings = settings
    self.configurationSeconds = configurationSeconds
    self.groupSeconds = groupSeconds
    self.offerSeconds = offerSeconds
    self.latencySigma = latencySigma
    self.backgroundChance = backgroundChance
    self.applyChance = applyChance
  }
}
