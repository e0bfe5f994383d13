/// How assignments reached devices, day by day.
public struct DeliveryResult: Hashable, Sendable {
  /// Per day: devices that had called stabilize by the end of the day.
  public var stabilized: [Int]
  /// Per day: launches at which an override changed a value a stabilized device held.
  public var overridden: [Int]
  /// Per day: fetches that failed or missed the time-out, of the remote
  /// configuration or of the hash-bucketed service's datafile or payload.
  public var failedFetches: [Int]
  /// Per day: keys that fell back to the app's default.
  public var defaultFallbacks: [Int]
  public var enrollment: [EnrollmentResult]
  public var churn: [ChurnResult]
  /// KOMA's reads after each successful fetch, per day, by kind
  /// ("experimentalGroup", "keyNotFound", "incorrectValue"); empty unless the
  /// remote values are read as KOMA reads them.
  public var tracking: [DailySeries] = []
  /// Per day: launches whose Optimizely activations came from the datafile
  /// held before that launch's download (`accessBeforeDownload`); empty
  /// unless the scenario has such launches.
  public var staleActivations: [Int] = []
  /// Optimizely's feature flags; empty without any.
  public var flags: [FlagResult] = []

  /// A feature flag's launches by day: on, and read without a datafile that
  /// has the flag (false, as the SDK answers on an error).
  public struct FlagResult: Hashable, Sendable {
    public var name: String
    public var on: [Int]
    public var unknown: [Int]

    public init(name: String, on: [Int], unknown: [Int]) {
      self.name = name
      self.on = on
      self.unknown = unknown
    }
  }

  /// A count per day under a name.
  public struct DailySeries: Hashable, Sendable {
    public var name: String
    public var days: [Int]

    public init(name: String, days: [Int]) {
      self.name = name
      self.days = days
    }
  }

  public init(
    stabilized: [Int], overridden: [Int], failedFetches: [Int], defaultFallbacks: [Int], enrollment: [EnrollmentResult],
    churn: [ChurnResult]
  ) {
    self.stabilized = stabilized
    self.overridden = overridden
    self.failedFetches = failedFetches
    self.defaultFallbacks = defaultFallbacks
    self.enrollment = enrollment
    self.churn = churn
  }
}

/// Who a remote experiment reached: devices that launched while it was on the
/// service and in its audience, and how long their enrollment took.
public struct EnrollmentResult: Hashable, Sendable {
  public var experiment: String
  public var eligible: Int
  public var enrolled: Int
  /// Devices by the days from their first eligible launch to holding the experiment.
  public var daysToEnroll: [Int]

  public init(experiment: String, eligible: Int, enrolled: Int, daysToEnroll: [Int]) {
    self.experiment = experiment
    self.eligible = eligible
    self.enrolled = enrolled
    self.daysToEnroll = daysToEnroll
  }

  /// The mean days to enroll, or `nil` when nobody enrolled.
  public var meanDaysToEnroll: Double? {
    enrolled > 0 ? Double(daysToEnroll.enumerated().reduce(0) { $0 + $1.offset * $1.element }) / Double(enrolled) : nil
  }

  /// The days within which `share` of the enrolled devices had enrolled.
  public func daysToEnroll(share: Double) -> Int? {
    guard enrolled > 0 else { return nil }
    var running = 0
    for (day, count) in daysToEnroll.enumerated() {
      running += count
      if Double(running) >= share * Double(enrolled) { return day }
    }
    return daysToEnroll.count - 1
  }
}

/// What a buggy variant did to the devices that held its bug.
public struct ChurnResult: Hashable, Sendable {
  public var experiment: String
  public var variant: String
  public var exposed: Int
  public var lost: Int
  public var stuck: Int
  public var rescued: Int

  public init(experiment: String, variant: String, exposed: Int, lost: Int, stuck: Int, rescued: Int) {
    self.experiment = experiment
    self.variant = variant
    self.exposed = exposed
    self.lost = lost
    self.stuck = stuck
    self.rescued = rescued
  }
}
