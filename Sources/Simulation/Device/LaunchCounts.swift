/// The batch's counts of devices, launches, upgrades and stabilize calls:
/// `RunTally.devices`, `launches`, `upgrades`, `stabilizedDevices` and `stabilizedByDay`.
struct LaunchCounts: DevicePart, ~Copyable {
  private let versions: Int
  private var devices = 0
  private var launches = 0
  /// By `from * versions + to`.
  private var upgrades: ScratchArray<Int>
  private var stabilizedDevices = 0
  /// By the day a device first called stabilize.
  private var stabilizedByDay: [Int]

  init(tables: borrowing @_addressable SimulationTables) {
    versions = tables.versionCount
    upgrades = ScratchArray(repeating: 0, count: versions * versions)
    stabilizedByDay = Array(repeating: 0, count: tables.days)
  }

  @inline(__always)
  mutating func countLaunch() { launches += 1 }

  /// A day's launches after its first, counted at once (`DeviceSimulator.repeatLaunches`).
  mutating func countLaunches(_ count: Int) { launches += count }

  @inline(__always)
  mutating func countUpgrade(from: Int, to: Int) { upgrades[from * versions + to] += 1 }

  /// A device's first call of stabilize.
  mutating func countFirstStabilize(day: Int) { stabilizedByDay[day] += 1 }

  /// A device whose launches are over.
  mutating func countDevice(stabilized: Bool) {
    devices += 1
    if stabilized { stabilizedDevices += 1 }
  }

  /// Keeps nothing of a device: counts add up across devices.
  mutating func reset(device _: Int, random _: DeviceRandom) {}

  func fold(into tally: inout RunTally, tables _: borrowing @_addressable SimulationTables) {
    tally.devices += devices
    tally.launches += launches
    tally.stabilizedDevices += stabilizedDevices
    for index in upgrades.indices { tally.upgrades[index] += upgrades[index] }
    for day in stabilizedByDay.indices { tally.stabilizedByDay[day] += stabilizedByDay[day] }
  }
}
