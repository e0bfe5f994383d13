/// How the stores hand a version to devices (docs/rules/StoreRollouts.md):
/// Apple's phased release of automatic updates and Google Play's staged
/// rollout. A version without one is served to every device on its release day.
public struct StoreRollout: Hashable, Sendable {
  /// The App Store's phased release; nil: automatic updates are not phased.
  public var appStorePhasedRelease: PhasedRelease?
  /// Google Play's staged rollout, in order of day; empty: not staged.
  public var googlePlayStages: [RolloutStage]

  public init(appStorePhasedRelease: PhasedRelease? = nil, googlePlayStages: [RolloutStage] = []) {
    self.appStorePhasedRelease = appStorePhasedRelease
    self.googlePlayStages = googlePlayStages
  }

  /// The share of Google Play's users the version is served to on `day`:
  /// the last stage's by then, 0 before the first stage and while halted.
  public func googlePlayShare(onDay day: Int) -> Double {
    googlePlayStages.last { $0.day <= day }?.share ?? 0
  }
}

/// The App Store's phased release of an update to devices with automatic
/// updates on: a random share of them, rising over seven days (App Store
/// Connect Help, "Release a version update in phases"). Manual updates and
/// new installs are not phased.
public struct PhasedRelease: Hashable, Sendable {
  /// The shares of the seven days of a phased release, Apple's table.
  public static let dailyShares = [0.01, 0.02, 0.05, 0.10, 0.20, 0.50, 1.0]
  /// Apple lets a phased release be paused for 30 days in all.
  public static let longestPause = 30

  /// Days on which the share does not rise; it stays at the last day's.
  public var pauses: [DayRange]

  public init(pauses: [DayRange] = []) {
    self.pauses = pauses
  }

  /// The share of automatic updaters served on `day` for a version released
  /// on `releaseDay`: the share of the phased release's n-th day, n counting
  /// the days since the release that were not paused; 0 before the release.
  public func share(onDay day: Int, releaseDay: Int) -> Double {
    guard day >= releaseDay else { return 0 }
    let paused = pauses.reduce(0) { total, pause in
      total + max(0, min(day, pause.day + pause.days - 1) - pause.day + 1)
    }
    let phase = day - releaseDay + 1 - paused
    return Self.dailyShares[min(max(phase, 1), Self.dailyShares.count) - 1]
  }

  /// Each day on which the share rises, with the share from then on: the
  /// release day's 1% first.
  public func risingDays(releaseDay: Int) -> [(day: Int, share: Double)] {
    var rises: [(day: Int, share: Double)] = []
    var day = releaseDay
    while rises.last?.share != 1 {
      let share = share(onDay: day, releaseDay: releaseDay)
      if share != rises.last?.share { rises.append((day, share)) }
      day += 1
    }
    return rises
  }
}

/// Days `day` to `day + days - 1`.
public struct DayRange: Hashable, Sendable {
  public var day: Int
  public var days: Int

  public init(day: Int, days: Int) {
    self.day = day
    self.days = days
  }
}

/// A step of Google Play's staged rollout: from `day`, the share of users
/// the version is served to, new installs and updates alike; a halt serves
/// it to nobody new until a later stage resumes it, to the same users (Play
/// Console Help, "Release app updates with staged rollouts").
public struct RolloutStage: Hashable, Sendable {
  public var day: Int
  /// The share served from `day`; 0 for a halt.
  public var share: Double

  public init(day: Int, share: Double) {
    self.day = day
    self.share = share
  }

  public var isHalt: Bool { share == 0 }
}

/// The store a device gets the app from, by its segment's `platform` attribute.
public enum AppStoreKind: Int, Hashable, Sendable {
  case none, appStore, googlePlay

  /// `iOS` (or `iPadOS`) is the App Store's, `Android` Google Play's, any case.
  public init(platform: String?) {
    switch platform?.lowercased() {
    case "ios", "ipados": self = .appStore
    case "android": self = .googlePlay
    default: self = .none
    }
  }
}
