/// What a scenario and `bench compare` must know of a hash-bucketed platform
/// (Optimizely, GrowthBook, LaunchDarkly, ...) to read and translate a plan:
/// its name in the scenario, what its mobile SDK keeps on the device, what
/// re-randomizes an experiment, and the steps its dashboard holds shares in.
///
/// The platform's plug-in (module `Platforms`) states them; the scenario
/// reader is given the list of platforms it accepts, so that a new platform
/// changes nothing here.
public struct PlatformTraits: Hashable, Sendable {
  /// The scenario's `service.framework` value, e.g. "optimizely".
  public let name: String
  /// The vendor's name as it writes it, e.g. "GrowthBook".
  public let vendorName: String
  /// Whether the mobile SDK keeps decisions on the device by default
  /// (Optimizely's user profile): a scenario that leaves `sticky` out gets this.
  public let keepsDecisionsByDefault: Bool
  /// Whether the app can ask the SDK to keep a decision on the device.
  public let canKeepDecisions: Bool
  /// What re-randomizes an experiment, for messages ("a new salt"); nil for a
  /// platform without one, where `newBucketVersion` is refused.
  public let rerandomization: String?
  /// The whole steps the dashboard holds traffic and weights in; nil where it
  /// holds any share exactly.
  public let shareSteps: ShareSteps?
  /// Whether the plan may roll out feature flags on the platform (`service.flags`).
  public let hasFeatureFlags: Bool
  /// Whether the SDK caches a session's activations until the app restarts,
  /// so that `service.accessBeforeDownload` applies (seed 001, Optimizely).
  public let cachesActivationsUntilRestart: Bool
  /// The rule page of what a dashboard change does to the platform's devices
  /// (docs/rules/<page>.md), which `bench inspect` names for a reassignment.
  public let changeRulePage: String?

  /// Traffic and weights as the dashboard holds them: `traffic` and
  /// `weights` steps make the whole, `unit` says so in a note.
  public struct ShareSteps: Hashable, Sendable {
    public let traffic: Double
    public let weights: Double
    public let unit: String

    public init(traffic: Double, weights: Double, unit: String) {
      self.traffic = traffic
      self.weights = weights
      self.unit = unit
    }
  }

  public init(
    name: String, vendorName: String, keepsDecisionsByDefault: Bool = false, canKeepDecisions: Bool = false,
    rerandomization: String?, shareSteps: ShareSteps? = nil, hasFeatureFlags: Bool = false,
    cachesActivationsUntilRestart: Bool = false, changeRulePage: String? = nil
  ) {
    self.name = name
    self.vendorName = vendorName
    self.keepsDecisionsByDefault = keepsDecisionsByDefault
    self.canKeepDecisions = canKeepDecisions || keepsDecisionsByDefault
    self.rerandomization = rerandomization
    self.shareSteps = shareSteps
    self.hasFeatureFlags = hasFeatureFlags
    self.cachesActivationsUntilRestart = cachesActivationsUntilRestart
    self.changeRulePage = changeRulePage
  }
}
