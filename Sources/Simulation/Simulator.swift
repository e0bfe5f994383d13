/// Runs a scenario's population in parallel and deterministically.
///
/// Devices are cut into batches; each batch is simulated device by device into
/// its own tally, and batch tallies are merged in batch order. Every device
/// draws from streams keyed by its own number, and tallies add exactly, so the
/// result is the same to the bit for any thread count and any batch size.
public struct Simulator: Sendable {
  public let plan: SimulationPlan
  /// Devices per batch: the unit of parallel work and of progress reports.
  public let batchSize: Int

  /// The batch size of a run: large enough that a batch's set-up (its tables,
  /// `RunEstimate.secondsPerRevisionExperiment`) is small beside its devices.
  public static let defaultBatchSize = 16384

  public init(plan: SimulationPlan, batchSize: Int = Simulator.defaultBatchSize) {
    precondition(batchSize > 0, "a batch holds at least one device")
    self.plan = plan
    self.batchSize = batchSize
  }

  /// The seed replication `replication` uses.
  public func seed(ofReplication replication: Int) -> UInt64 {
    DeviceRandom.replicationSeed(plan.scenario.seed, replication: replication)
  }

  /// Simulates the devices of one replication, all of them unless `devices`
  /// names a part.
  ///
  /// - Parameters:
  ///   - devices: the device numbers to simulate; a part's tally merged with
  ///     the others' is the whole run's, whatever the cut.
  ///   - threads: how many batches run at once.
  ///   - makeObserver: a fresh observer per batch; the observers come back in
  ///     batch order, so what they recorded is in device order.
  ///   - progress: called with the number of devices done, after each batch.
  public func run<Observer: DeviceObserver & Sendable>(
    replication: Int,
    devices: Range<Int>? = nil,
    threads: Int,
    makeObserver: @escaping @Sendable () -> Observer,
    progress: (Int) -> Void = { _ in }
  ) async -> (tally: RunTally, observers: [Observer]) {
    var observers: [Observer] = []
    let tally = await run(
      replication: replication, devices: devices, threads: threads, makeObserver: makeObserver,
      receive: { observers.append($0) }, progress: progress)
    return (tally, observers)
  }

  /// Simulates the devices of one replication and hands each batch's
  /// observer to `receive` as soon as the batches before it are done, in
  /// batch order (so in device order), without keeping it: what the observers
  /// record can be written out as the run goes, in memory that does not grow
  /// with the population.
  public func run<Observer: DeviceObserver & Sendable>(
    replication: Int,
    devices: Range<Int>? = nil,
    threads: Int,
    makeObserver: @escaping @Sendable () -> Observer,
    receive: (Observer) -> Void,
    progress: (Int) -> Void = { _ in }
  ) async -> RunTally {
    let devices = devices ?? 0..<plan.scenario.devices
    let batches = (devices.count + batchSize - 1) / batchSize
    let seed = seed(ofReplication: replication)
    let plan = plan, batchSize = batchSize
    // The first batch's tally is the merge so far as it stands (added to zeros, each count is
    // itself), so that a replication of one batch allocates and merges no second tally.
    var merged: RunTally?
    await withTaskGroup(of: (Int, RunTally, Observer).self) { group in
      var nextBatch = 0
      func startBatch() {
        let batch = nextBatch
        nextBatch += 1
        group.addTask {
          var simulator = DeviceSimulator(plan: plan, seed: seed, replication: replication)
          var observer = makeObserver()
          let first = devices.lowerBound + batch * batchSize
          for device in first..<min(first + batchSize, devices.upperBound) {
            simulator.simulate(device: device, observer: &observer)
          }
          return (batch, simulator.finish(), observer)
        }
      }
      while nextBatch < min(max(threads, 1), batches) { startBatch() }
      var pending: [Int: (RunTally, Observer)] = [:]
      var nextToMerge = 0
      while let (batch, tally, observer) = await group.next() {
        if nextBatch < batches { startBatch() }
        pending[batch] = (tally, observer)
        while let (ready, readyObserver) = pending.removeValue(forKey: nextToMerge) {
          if merged == nil {
            merged = ready
          } else {
            merged!.merge(ready)
          }
          receive(readyObserver)
          nextToMerge += 1
        }
        progress(merged?.devices ?? 0)
      }
    }
    return merged ?? RunTally(plan: plan)
  }

  /// Simulates the devices of one replication (all unless `devices` names a
  /// part) with no observer.
  public func run(
    replication: Int, devices: Range<Int>? = nil, threads: Int, progress: (Int) -> Void = { _ in }
  ) async -> RunTally {
    await run(
      replication: replication, devices: devices, threads: threads, makeObserver: { NoObserver() }, progress: progress
    ).tally
  }

  /// Replays `devices` of one replication in order, each exactly as the full
  /// run simulates it, with one simulator whose tables are built once: each
  /// device's observer, made fresh by `makeObserver`, goes to `visit`, which
  /// returns false to stop.
  public func replay<Observer: DeviceObserver>(
    devices: Range<Int>, replication: Int = 0, makeObserver: () -> Observer, visit: (Observer) -> Bool
  ) {
    var simulator = DeviceSimulator(plan: plan, seed: seed(ofReplication: replication), replication: replication)
    for device in devices {
      var observer = makeObserver()
      simulator.simulate(device: device, observer: &observer)
      guard visit(observer) else { return }
    }
  }

  /// Simulates one device alone, exactly as the full run simulates it.
  public func replay<Observer: DeviceObserver>(device: Int, replication: Int = 0, observer: inout Observer) -> RunTally {
    var simulator = DeviceSimulator(plan: plan, seed: seed(ofReplication: replication), replication: replication)
    simulator.simulate(device: device, observer: &observer)
    return simulator.finish()
  }
}
