/// When the run's devices install the app: some before day 0, the rest on the
/// run's days, at a daily level with campaign spikes on top (docs/world.md).
///
/// The counts are the schedule's shape, as a team reads them off its export:
/// the run's devices (the scenario's `devices`, or `--devices`) are spread
/// over it in proportion, so a plan keeps its world at any size.
public struct InstallSchedule: Hashable, Sendable {
  /// Devices that installed the app before day 0: they run the first version
  /// from day 0, and no launch of theirs in the run is a first launch.
  public var existing: Double
  /// New devices a day, every day of the run.
  public var daily: Double
  /// Extra new devices a day over a few days, beside `daily`.
  public var campaigns: [Campaign]

  /// New devices a day added to `daily` from `day` for `days` days.
  public struct Campaign: Hashable, Sendable {
    public var day: Int
    public var days: Int
    public var daily: Double

    public init(day: Int, days: Int, daily: Double) {
      self.day = day
      self.days = days
      self.daily = daily
    }
  }

  public init(existing: Double, daily: Double, campaigns: [Campaign] = []) {
    self.existing = existing
    self.daily = daily
    self.campaigns = campaigns
  }

  /// The new devices of each day of a run of `days` days, in the schedule's units.
  public func newDevices(days: Int) -> [Double] {
    var counts = [Double](repeating: daily, count: days)
    for campaign in campaigns {
      for day in campaign.day..<min(campaign.day + campaign.days, days) { counts[day] += campaign.daily }
    }
    return counts
  }

  /// The schedule's share of devices installed before day 0, then of each
  /// day's new devices: the chances a device's install day is drawn by.
  public func shares(days: Int) -> (existing: Double, daily: [Double]) {
    let counts = newDevices(days: days)
    let total = counts.reduce(existing, +)
    return (existing / total, counts.map { $0 / total })
  }
}

/// When an app displays an experiment it holds: at every launch (a paywall, a
/// button's colour), or once (an onboarding, a "what's new" screen).
public enum DisplayMoment: String, Hashable, Sendable, CaseIterable {
  /// At every launch, with the experiment's display probability.
  case everyLaunch
  /// At the device's first launch after it installs the app: never for a
  /// device installed before day 0.
  case firstLaunch
  /// At the device's first launch of each version it runs.
  case firstLaunchOfVersion
}
