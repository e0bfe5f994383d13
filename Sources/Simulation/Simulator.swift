/// Runs a scenario's population in parallel and deterministically.
///
/// Devices are cut into shards; each shard is simulated device by device into
/// its own tally, and shard tallies are merged in shard order. Every device
/// draws from streams keyed by its own number, and tallies add exactly, so the
/// result is the same to the bit for any thread count and any shard size.
public struct Simulator: Sendable {
  public let plan: SimulationPlan
  /// Devices per shard: the unit of parallel work and of progress reports.
  public let shardSize: Int

  public init(plan: SimulationPlan, shardSize: Int = 16384) {
    precondition(shardSize > 0, "a shard holds at least one device")
    self.plan = plan
    self.shardSize = shardSize
  }

  /// The seed replication `replication` uses.
  public func seed(ofReplication replication: Int) -> UInt64 {
    DeviceRandom.replicationSeed(plan.scenario.seed, replication: replication)
  }

  /// Simulates every device of one replication.
  ///
  /// - Parameters:
  ///   - threads: how many shards run at once.
  ///   - makeObserver: a fresh observer per shard; the observers come back in
  ///     shard order, so what they recorded is in device order.
  ///   - progress: called with the number of devices done, after each shard.
  public func run<Observer: DeviceObserver & Sendable>(
    replication: Int,
    threads: Int,
    makeObserver: @escaping @Sendable () -> Observer,
    progress: (Int) -> Void = { _ in }
  ) async -> (tally: RunTally, observers: [Observer]) {
    let devices = plan.scenario.devices
    let shards = (devices + shardSize - 1) / shardSize
    let seed = seed(ofReplication: replication)
    let plan = plan, shardSize = shardSize
    var merged = RunTally(plan: plan)
    var observers: [Observer] = []
    observers.reserveCapacity(shards)
    await withTaskGroup(of: (Int, RunTally, Observer).self) { group in
      var nextShard = 0
      func startShard() {
        let shard = nextShard
        nextShard += 1
        group.addTask {
          var simulator = DeviceSimulator(plan: plan, seed: seed, replication: replication)
          var observer = makeObserver()
          let first = shard * shardSize
          for device in first..<min(first + shardSize, devices) {
            simulator.simulate(device: device, observer: &observer)
          }
          var tally = RunTally(plan: plan)
          simulator.finish(into: &tally)
          return (shard, tally, observer)
        }
      }
      while nextShard < min(max(threads, 1), shards) { startShard() }
      var pending: [Int: (RunTally, Observer)] = [:]
      var nextToMerge = 0
      while let (shard, tally, observer) = await group.next() {
        if nextShard < shards { startShard() }
        pending[shard] = (tally, observer)
        while let (ready, readyObserver) = pending.removeValue(forKey: nextToMerge) {
          merged.merge(ready)
          observers.append(readyObserver)
          nextToMerge += 1
        }
        progress(merged.devices)
      }
    }
    return (merged, observers)
  }

  /// Simulates every device of one replication with no observer.
  public func run(replication: Int, threads: Int, progress: (Int) -> Void = { _ in }) async -> RunTally {
    await run(replication: replication, threads: threads, makeObserver: { NoObserver() }, progress: progress).tally
  }

  /// Simulates one device alone, exactly as the full run simulates it.
  public func replay<Observer: DeviceObserver>(device: Int, replication: Int = 0, observer: inout Observer) -> RunTally {
    var simulator = DeviceSimulator(plan: plan, seed: seed(ofReplication: replication), replication: replication)
    simulator.simulate(device: device, observer: &observer)
    var tally = RunTally(plan: plan)
    simulator.finish(into: &tally)
    return tally
  }
}
