/// What a run records about the remote service's delivery, summed over devices.
public struct RemoteTally: Hashable, Sendable {
  /// Per day: launches whose fetch failed or missed the time-out.
  public var failedFetches: [Int]
  /// Per day: keys that fell back to the app's default at a successful fetch.
  public var defaultFallbacks: [Int]
  /// KOMA's reads after each successful fetch, by `day * 5 + kind`: the keys
  /// tracked as an experimental group, as not found, as an incorrect value,
  /// and the valid remote values a custom or a debug value stood in for
  /// (not tracked as a group).
  public var tracking: [Int]
  /// Per day: launches at which an override changed a value a stabilized device held.
  public var overridden: [Int]
  /// Per remote experiment: who could enrol, who did, and how long it took.
  public var enrollment: [Enrollment]
  /// Per churn rule: what the buggy variant did.
  public var churn: [ChurnTally]
  /// By remote experiment and revision of the service's configuration: the
  /// devices whose successful fetch moved them to that revision, and what
  /// its changes did to them.
  public var changes: [[ChangeCounts]]

  /// Devices that launched while the experiment was on the service and its
  /// audience admitted them, and how many of them the device came to hold it.
  public struct Enrollment: Hashable, Sendable {
    public var eligible = 0
    public var enrolled = 0
    /// Devices by the days from their first eligible launch to holding the experiment.
    public var daysToEnroll: [Int]

    init(days: Int) {
      daysToEnroll = Array(repeating: 0, count: days)
    }
  }

  /// Devices that held the rule's variant with its buggy values.
  public struct ChurnTally: Hashable, Sendable {
    /// Devices that launched at least once with the bug.
    public var exposed = 0
    /// Of those, devices that stopped launching because of it.
    public var lost = 0
    /// Of those, devices that had called stabilize while holding the bug: only
    /// an override could reach them.
    public var stuck = 0
    /// Of the exposed, devices that later launched with the variant but without
    /// the bug, and were not lost.
    public var rescued = 0
  }

  init(remoteExperiments: Int, churnRules: Int, days: Int, revisions: Int) {
    changes = Array(repeating: Array(repeating: ChangeCounts(), count: revisions), count: remoteExperiments)
    failedFetches = Array(repeating: 0, count: days)
    defaultFallbacks = Array(repeating: 0, count: days)
    tracking = Array(repeating: 0, count: days * 5)
    overridden = Array(repeating: 0, count: days)
    enrollment = Array(repeating: Enrollment(days: days), count: remoteExperiments)
    churn = Array(repeating: ChurnTally(), count: churnRules)
  }
}
