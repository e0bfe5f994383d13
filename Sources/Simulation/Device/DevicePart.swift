/// What every counting part of the device loop promises it (docs/architecture.md, "The device loop's
/// parts"): it forgets what it kept of the previous device when a device starts, and adds what it
/// counted over its devices to the run's tally when the batch ends. Each count is declared, reset and
/// folded in its part's file, and the loop resets and folds every part the same way.
protocol DevicePart: ~Copyable {
  /// Device `device` starts, its draws from `random`: forget the previous device (a part that keeps
  /// nothing of a device, or is not used by the plan, does nothing).
  mutating func reset(device: Int, random: DeviceRandom)
  /// Adds what the part counted over its devices to `tally`; `tables` is the plan, lent to read.
  func fold(into tally: inout RunTally, tables: borrowing @_addressable SimulationTables)
}
