/// What an observer is shown of each launch (`LaunchRecord`), refilled in
/// place, and which experiments the launch displayed.
struct LaunchRecorder: ~Copyable {
  private(set) var record = LaunchRecord()
  /// Per slot of the running version, kept for observers only.
  var slotDisplayed: ScratchArray<Bool>
  /// Per remote experiment and per service experiment.
  var remoteDisplayed: ScratchArray<Bool>
  var serviceDisplayed: ScratchArray<Bool>

  init(tables: borrowing @_addressable SimulationTables) {
    slotDisplayed = ScratchArray(repeating: false, count: tables.maximumSlots)
    remoteDisplayed = ScratchArray(repeating: false, count: tables.remote.count)
    serviceDisplayed = ScratchArray(repeating: false, count: tables.service.count)
  }

  /// Refills `record` with the launch just simulated.
  @inline(__always)
  mutating func fill(
    day: Int, version: Int, launchOfVersion: Int, stabilized: Bool, local: borrowing @_addressable LocalDecisions,
    serving: borrowing @_addressable ServedExperiments, remote: borrowing @_addressable RemoteDevice,
    service: borrowing @_addressable ServiceDevice,
    tables: borrowing @_addressable SimulationTables
  ) {
    let slots = tables.slotStart[version + 1] - tables.slotStart[version]
    record.day = day
    record.version = version
    record.launchOfVersion = launchOfVersion
    record.stabilized = stabilized
    if record.decisions.count != slots {
      record.decisions = Array(repeating: .inactive, count: slots)
      record.served = Array(repeating: false, count: slots)
      record.displayed = Array(repeating: false, count: slots)
    }
    for index in 0..<slots {
      record.decisions[index] = local.decisions[index] >= 0 ? .active(variant: local.decisions[index]) : .inactive
      record.served[index] = serving.served[index]
      record.displayed[index] = slotDisplayed[index]
    }
    record.clashes = serving.launchClashes
    if !record.remote.isEmpty { record.remote.removeAll(keepingCapacity: true) }
    for r in 0..<tables.remote.count where remote.held[r] >= 0 {
      record.remote.append(RemoteHolding(
        experiment: tables.remote.globalID[r], variant: remote.held[r], values: remote.values(r),
        served: serving.served[slots + r], displayed: remoteDisplayed[r]))
    }
    if !record.services.isEmpty { record.services.removeAll(keepingCapacity: true) }
    for s in 0..<tables.service.count where service.held[s] >= 0 {
      record.services.append(
        ServiceHolding(experiment: tables.service.globalID[s], variant: service.held[s], displayed: serviceDisplayed[s]))
    }
  }
}
