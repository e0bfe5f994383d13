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

  init(tables: borrowing @_addressable SimulationTables) {
    upgradeDays = ScratchArray(repeating: 0, count: tables.versionCount)
    installableFrom = ScratchArray(repeating: 0, count: tables.versionCount)
  }

  /// Each later version's upgrade day: never with the version's never-upgrade
  /// share, otherwise its release day plus an exponential delay.
  mutating func draw(_ stream: RandomStream, tables: borrowing @_addressable SimulationTables) {
    var stream = stream
    upgradeDays[0] = 0
    for version in 1..<tables.versionCount {
      let never = stream.nextUnit() < tables.neverUpgradeShares[version]
      let delay = stream.nextExponential(mean: tables.meanDelays[version])
      upgradeDays[version] = never ? .infinity : Double(tables.releaseDays[version]) + delay
    }
    var earliest = Double.infinity
    for version in (0..<tables.versionCount).reversed() {
      earliest = min(earliest, upgradeDays[version])
      installableFrom[version] = earliest
    }
  }

  /// A device that installs `version` on `day` (docs/world.md): it never ran
  /// the versions before it, and takes the later ones by their draws, all
  /// released after its install.
  mutating func install(version: Int, day: Int) {
    for earlier in 0..<version { upgradeDays[earlier] = .infinity }
    upgradeDays[version] = Double(day)
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
