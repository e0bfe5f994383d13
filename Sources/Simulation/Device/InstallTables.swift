import ScenarioFormat

/// When a device installs the app, and which version it installs: the
/// population's install schedule (`InstallSchedule`) as the loop reads it.
struct InstallTables {
  /// Whether the population has an install schedule; without one every
  /// device installs the first version on day 0 and no draw is made.
  let isUsed: Bool
  /// The chance of an install before day 0, then cumulated over the run's
  /// days. From the last entry with a share of its own on, it is infinite, so
  /// that a draw the rounding of the sums leaves above them still lands on a
  /// day with installs.
  private let cumulative: [Double]
  /// Per day, the version a device installing that day takes: the newest one
  /// released by then.
  let versionOnDay: [Int]

  /// The install day marking a device installed before day 0.
  static let beforeRun = -1

  init(scenario: Scenario) {
    let releaseDays = scenario.versions.map(\.releaseDay)
    versionOnDay = (0..<scenario.days).map { day in releaseDays.lastIndex { $0 <= day } ?? 0 }
    guard let schedule = scenario.population.installs else {
      isUsed = false
      cumulative = []
      return
    }
    isUsed = true
    let shares = schedule.shares(days: scenario.days)
    var running = shares.existing
    var cumulative = [running]
    for share in shares.daily {
      running += share
      cumulative.append(running)
    }
    let weights = [shares.existing] + shares.daily
    let last = weights.lastIndex { $0 > 0 } ?? 0
    for index in last..<cumulative.count { cumulative[index] = .infinity }
    self.cumulative = cumulative
  }

  /// The install day of a device for a uniform draw in [0, 1):
  /// `InstallTables.beforeRun` or a day of the run.
  func installDay(forUnit unit: Double) -> Int {
    var low = 0, high = cumulative.count - 1
    while low < high {
      let middle = (low + high) / 2
      if unit < cumulative[middle] { high = middle } else { low = middle + 1 }
    }
    return low - 1
  }
}
