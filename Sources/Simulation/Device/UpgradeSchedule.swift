import ScenarioFormat

/// When a device takes each version: drawn once per device, then read at
/// every day of its life.
struct UpgradeSchedule: ~Copyable {
  /// Per version, the day the device upgrades to it, infinite for never.
  private(set) var upgradeDays: ScratchArray<Double>
  /// Per version, the first day the device runs it or a newer one: the
  /// smallest upgrade day of the version and every later one. It never
  /// decreases from version to version, so the launch loop finds the version
  /// installed on a day by stepping forward from the last one.
  private var installableFrom: ScratchArray<Double>
  /// Per version, the device's draws for the stores (`StoreTables.Draws`),
  /// kept for the version it installs; unused without `StoreTables.isUsed`.
  private var storeDraws: ScratchArray<StoreTables.Draws>
  /// The device's store, by its segment.
  private var store = AppStoreKind.none

  init(tables: borrowing @_addressable SimulationTables) {
    upgradeDays = ScratchArray(repeating: 0, count: tables.versionCount)
    installableFrom = ScratchArray(repeating: 0, count: tables.versionCount)
    storeDraws = ScratchArray(
      repeating: StoreTables.Draws(automatic: 0, store: 0, curve: 0, within: 0), count: tables.versionCount)
  }

  /// Each later version's upgrade day: never with the version's never-upgrade
  /// share, otherwise its release day plus an exponential delay; where the
  /// plan models updates further (`StoreTables`), by those rules, with draws
  /// from `updates`.
  mutating func draw(
    _ stream: RandomStream, updates: RandomStream, segment: Int, tables: borrowing @_addressable SimulationTables
  ) {
    var stream = stream, updates = updates
    upgradeDays[0] = 0
    let modelsUpdates = tables.stores.isUsed
    store = modelsUpdates ? tables.stores.segmentStores[segment] : .none
    let automatic = modelsUpdates ? updates.nextUnit() : 0
    for version in 1..<tables.versionCount {
      let never = stream.nextUnit() < tables.neverUpgradeShares[version]
      let delay = stream.nextExponential(mean: tables.meanDelays[version])
      let releaseDay = tables.releaseDays[version]
      guard modelsUpdates else {
        upgradeDays[version] = never ? .infinity : Double(releaseDay) + delay
        continue
      }
      let draws = StoreTables.Draws(
        automatic: automatic, store: updates.nextUnit(), curve: updates.nextUnit(), within: updates.nextUnit())
      storeDraws[version] = draws
      upgradeDays[version] = tables.stores.upgradeDay(
        version: version, releaseDay: releaseDay, store: store, never: never, delay: delay, draws: draws)
    }
    var earliest = Double.infinity
    for version in (0..<tables.versionCount).reversed() {
      earliest = min(earliest, upgradeDays[version])
      installableFrom[version] = earliest
    }
  }

  /// The version a device installing the app on `day` installs: the newest
  /// released by then that its store serves it (`StoreTables.servesInstall`).
  func installVersion(day: Int, tables: borrowing @_addressable SimulationTables) -> Int {
    var version = tables.installs.versionOnDay[day]
    guard tables.stores.isUsed else { return version }
    while version > 0
      && !tables.stores.servesInstall(version: version, day: day, store: store, storeUnit: storeDraws[version].store)
    {
      version -= 1
    }
    return version
  }

  /// A device that installs `version` on `day` (docs/world.md): it never ran
  /// the versions before it, and takes the later ones by their draws; one
  /// released by then that its store did not serve it, from the first later
  /// day the store does.
  mutating func install(version: Int, day: Int, tables: borrowing @_addressable SimulationTables) {
    for earlier in 0..<version { upgradeDays[earlier] = .infinity }
    upgradeDays[version] = Double(day)
    for later in (version + 1)..<tables.versionCount where upgradeDays[later] <= Double(day) {
      upgradeDays[later] = tables.stores.upgradeDay(
        afterInstallOn: day, version: later, store: store, draws: storeDraws[later])
    }
    var earliest = Double.infinity
    for later in (version..<tables.versionCount).reversed() {
      earliest = min(earliest, upgradeDays[later])
      installableFrom[later] = earliest
    }
  }

  /// The newest version installed on `day`, given the one installed before:
  /// a device installs the newest it can, skipping any it never took.
  @inline(__always)
  func installed(on day: Int, after installed: Int, versions: Int) -> Int {
    var version = installed
    while version + 1 < versions && installableFrom[version + 1] <= Double(day) { version += 1 }
    return version
  }
}
