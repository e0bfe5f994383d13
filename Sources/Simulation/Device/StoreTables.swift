import ScenarioFormat

/// When a device takes each version, beyond one exponential delay: automatic
/// and manual updaters, an observed adoption curve, the App Store's phased
/// release, Google Play's staged rollout and a required version
/// (docs/rules/StoreRollouts.md, docs/rules/AdoptionCurve.md).
struct StoreTables {
  /// Whether any version uses one of these; otherwise the loop draws none of
  /// them and a version is taken after its exponential delay, as before.
  let isUsed: Bool
  /// Each segment's store, by its `platform` attribute.
  let segmentStores: [AppStoreKind]
  let automaticShares: [Double]
  let curves: [[AdoptionPoint]?]
  /// Per version, the days its phased release's share rises, and the share
  /// from each; empty without a phased release.
  private let phasedDays: [[Int]]
  private let phasedShares: [[Double]]
  /// Per version, Google Play's stages; empty without a staged rollout.
  private let stages: [[RolloutStage]]
  /// Per version, the day it is required from, infinite for never.
  let requiredFrom: [Double]

  /// A device's draws for one version, each uniform in [0, 1).
  struct Draws {
    /// Whether the device has automatic updates on: one draw per device, so
    /// that the same devices update automatically for every version.
    var automatic: Double
    /// Where the store's random selection puts the device for this version.
    var store: Double
    var curve: Double
    /// The moment within a day at which an update the store serves is taken.
    var within: Double
  }

  init(scenario: Scenario) {
    let versions = scenario.versions
    segmentStores = scenario.population.segments.map { AppStoreKind(platform: $0.attributes["platform"]) }
    automaticShares = versions.map(\.adoption.automaticShare)
    curves = versions.map(\.adoption.curve)
    let rises = versions.map { version in
      version.rollout?.appStorePhasedRelease?.risingDays(releaseDay: version.releaseDay) ?? []
    }
    phasedDays = rises.map { $0.map(\.day) }
    phasedShares = rises.map { $0.map(\.share) }
    stages = versions.map { $0.rollout?.googlePlayStages ?? [] }
    requiredFrom = versions.map { $0.requiredFromDay.map(Double.init) ?? .infinity }
    isUsed = versions.contains { version in
      version.adoption.automaticShare > 0 || version.adoption.curve != nil || version.rollout != nil
        || version.requiredFromDay != nil
    }
  }

  /// The moment a device of `store` takes `version`, released on `releaseDay`,
  /// infinite for never: by the curve, or, for a device that ever upgrades,
  /// within a day of the store serving it when automatic, after its `delay`
  /// when manual; Google Play serves it only while the device is in the
  /// staged rollout. A required version is taken from its day, whatever the rest.
  func upgradeDay(version: Int, releaseDay: Int, store: AppStoreKind, never: Bool, delay: Double, draws: Draws) -> Double {
    let moment: Double
    if let curve = curves[version] {
      moment = curve.delay(forUnit: draws.curve).map { Double(releaseDay) + $0 } ?? .infinity
    } else if never {
      moment = .infinity
    } else if draws.automatic < automaticShares[version] {
      let served = store == .appStore ? phasedDay(version: version, unit: draws.store) ?? releaseDay : releaseDay
      moment = gated(version: version, store: store, moment: Double(served) + draws.within, draws: draws)
    } else {
      moment = gated(version: version, store: store, moment: Double(releaseDay) + delay, draws: draws)
    }
    return min(moment, requiredFrom[version])
  }

  /// Whether a device of `store` that installs the app on `day` can install
  /// `version`, released by then: Google Play serves it to the devices in its
  /// staged rollout that day, the App Store to everyone; a required version
  /// to everyone.
  func servesInstall(version: Int, day: Int, store: AppStoreKind, storeUnit: Double) -> Bool {
    guard store == .googlePlay, !stages[version].isEmpty, requiredFrom[version] > Double(day) else { return true }
    return storeUnit < (stages[version].last { $0.day <= day }?.share ?? 0)
  }

  /// The moment a device that installed an older version on `day`, as Google
  /// Play did not serve it this one, takes it: within the first day after
  /// `day` its staged rollout serves it, or from the day it is required.
  func upgradeDay(afterInstallOn day: Int, version: Int, store: AppStoreKind, draws: Draws) -> Double {
    let served = playDay(version: version, from: day + 1, unit: draws.store).map { Double($0) + draws.within } ?? .infinity
    return min(served, requiredFrom[version])
  }

  /// The first day of the phased release whose share covers `unit`.
  func phasedDay(version: Int, unit: Double) -> Int? {
    let days = phasedDays[version], shares = phasedShares[version]
    guard let index = shares.firstIndex(where: { unit < $0 }) else { return nil }
    return days[index]
  }

  /// Google Play's gate on an update at `moment`: taken then if the staged
  /// rollout serves the device that day, else within the first later day it
  /// does, or never.
  private func gated(version: Int, store: AppStoreKind, moment: Double, draws: Draws) -> Double {
    guard store == .googlePlay, !stages[version].isEmpty, moment.isFinite else { return moment }
    let day = Int(moment.rounded(.down))
    guard let served = playDay(version: version, from: day, unit: draws.store) else { return .infinity }
    return served == day ? moment : Double(served) + draws.within
  }

  /// The first day from `day` on which the staged rollout serves a device of
  /// `unit`: one whose stage's share is above it (a halt's is 0).
  func playDay(version: Int, from day: Int, unit: Double) -> Int? {
    let stages = stages[version]
    for (index, stage) in stages.enumerated() where unit < stage.share {
      let end = index + 1 < stages.count ? stages[index + 1].day : Int.max
      if end > day { return max(day, stage.day) }
    }
    return nil
  }
}
