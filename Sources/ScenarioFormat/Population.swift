/// The devices of a scenario: segments with their share of the population,
/// the attributes behaviour can depend on, and how often they launch the app.
public struct Population: Hashable, Sendable {
  public var segments: [Segment]
  /// When devices install the app; nil: every device installs the first
  /// version on day 0.
  public var installs: InstallSchedule?
  /// Each weekday's factor on every device's daily activity probability,
  /// from Monday; nil: every day alike.
  public var weekdayFactors: [Double]?
  /// The weekday of day 0.
  public var firstWeekday: Weekday = .monday

  /// One segment holding every device, launching every day.
  public static let uniform = Population(segments: [
    Segment(name: "everyone", share: 1, dailyLaunchProbability: 1, attributes: [:])
  ])

  public init(segments: [Segment], installs: InstallSchedule? = nil) {
    self.segments = segments
    self.installs = installs
  }
}

/// A group of devices that behave alike.
public struct Segment: Hashable, Sendable {
  public var name: String
  /// The share of devices in the segment; the shares of a population sum to 1.
  public var share: Double
  /// The chance that a device of the segment launches the app on a given day.
  public var dailyLaunchProbability: Double
  /// Descriptive attributes such as platform or country, by name.
  public var attributes: [String: String]
  /// Activity beyond one daily launch probability.
  public var activity: Activity = .plain

  public init(name: String, share: Double, dailyLaunchProbability: Double, attributes: [String: String]) {
    self.name = name
    self.share = share
    self.dailyLaunchProbability = dailyLaunchProbability
    self.attributes = attributes
  }
}
