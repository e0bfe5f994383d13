/// How a segment's devices use the app (docs/rules/SessionsAndActivity.md):
/// each device's own chance of opening it on a day, how many times it opens
/// it on such a day, and the daily chance that it stops for good.
public struct Activity: Hashable, Sendable {
  /// The devices' daily activity probabilities follow a beta distribution
  /// of this mean and concentration (α = mean × concentration, β = (1 −
  /// mean) × concentration); nil: every device has the segment's
  /// `dailyLaunchProbability`.
  public var probability: BetaDistribution?
  /// The mean launches of an active day: 1 + a Poisson count of mean − 1.
  public var launchesPerActiveDay: Double
  /// The chance, each day after the one it installs on, that a device stops
  /// launching for good.
  public var inactivityHazard: Double
  /// The chance on each of the 7 days after a device installs during the
  /// run: new users leave faster than the devices that stayed; nil: the
  /// same as `inactivityHazard`.
  public var firstWeekInactivityHazard: Double?

  /// The days `firstWeekInactivityHazard` lasts after an install.
  public static let firstWeek = 7

  /// One launch on an active day, and no device stopping.
  public static let plain = Activity(probability: nil, launchesPerActiveDay: 1, inactivityHazard: 0)

  public init(
    probability: BetaDistribution?, launchesPerActiveDay: Double, inactivityHazard: Double,
    firstWeekInactivityHazard: Double? = nil
  ) {
    self.probability = probability
    self.launchesPerActiveDay = launchesPerActiveDay
    self.inactivityHazard = inactivityHazard
    self.firstWeekInactivityHazard = firstWeekInactivityHazard
  }
}

/// A beta distribution by its mean and concentration α + β.
public struct BetaDistribution: Hashable, Sendable {
  public var mean: Double
  public var concentration: Double

  public init(mean: Double, concentration: Double) {
    self.mean = mean
    self.concentration = concentration
  }

  public var alpha: Double { mean * concentration }
  public var beta: Double { (1 - mean) * concentration }
  /// mean × (1 − mean) / (concentration + 1).
  public var variance: Double { mean * (1 - mean) / (concentration + 1) }
}

/// The days of the week, for the population's weekday factors.
public enum Weekday: String, Hashable, Sendable, CaseIterable {
  case monday, tuesday, wednesday, thursday, friday, saturday, sunday
}
