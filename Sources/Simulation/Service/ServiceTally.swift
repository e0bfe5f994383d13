/// What a run records about the hash-bucketed service, summed over devices.
public struct ServiceTally: Hashable, Sendable {
  /// By service experiment and revision: devices whose configuration moved to
  /// that revision between two launches, and what it did to them.
  public var changes: [[ChangeCounts]]
  /// Devices that reinstalled the app and so got a new id.
  public var reinstalled = 0
  /// Per day: configuration downloads that failed or missed the time-out.
  public var failedFetches: [Int]
  /// Per day: launches whose activations came from an older configuration
  /// than the one downloaded during the session (Optimizely's activation,
  /// read before the download completed).
  public var staleActivations: [Int]
  /// By flag and day: launches at which the flag was on; and those at which
  /// the device held no configuration with the flag, which the SDK answers
  /// with false (seed 001: "false … when an error occurs").
  public var flagOn: [[Int]]
  public var flagUnknown: [[Int]]

  init(experiments: Int, revisions: Int, days: Int, flags: Int) {
    changes = Array(repeating: Array(repeating: ChangeCounts(), count: revisions), count: experiments)
    failedFetches = Array(repeating: 0, count: days)
    staleActivations = failedFetches
    flagOn = Array(repeating: failedFetches, count: flags)
    flagUnknown = flagOn
  }
}
