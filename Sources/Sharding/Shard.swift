/// One of `count` equal pieces of a run, numbered from 0 as a cluster's array
/// index is (`SLURM_ARRAY_TASK_ID`, Kubernetes' `JOB_COMPLETION_INDEX`).
///
/// A run is `replications × devices` units of work, one device of one
/// replication each, taken in order: replication 0's devices, then
/// replication 1's. Shard `index` simulates units ⌊index·total/count⌋ up to
/// ⌊(index + 1)·total/count⌋. Devices draw from streams keyed by their own
/// number and tallies add exactly, so the parts merge to the one-machine run
/// whatever `count` is.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
  public let index: Int
  public let count: Int

  /// - Throws: `ShardError.invalidShard` unless 0 ≤ index < count.
  public init(index: Int, count: Int) throws(ShardError) {
    guard count > 0, (0..<count).contains(index) else {
      throw .invalidShard("\(index)/\(count)")
    }
    self.index = index
    self.count = count
  }

  /// Reads `K/N`, as `--shard 3/8` writes it.
  public init(parsing text: String) throws(ShardError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
      throw .invalidShard(text)
    }
    try self.init(index: index, count: count)
  }

  public var description: String { "\(index)/\(count)" }

  /// The devices this shard simulates, by replication, in order; a
  /// replication the shard does not reach is absent.
  public func pieces(replications: Int, devices: Int) -> [Piece] {
    Array(lazyPieces(replications: replications, devices: devices))
  }

  /// The same pieces, made one at a time as they are asked for.
  func lazyPieces(replications: Int, devices: Int) -> LazyMapSequence<Range<Int>, Piece> {
    let total = Int128(replications) * Int128(devices)
    let first = Int128(index) * total / Int128(count)
    let end = Int128(index + 1) * total / Int128(count)
    let reached = first < end ? Int(first / Int128(devices))..<Int((end - 1) / Int128(devices) + 1) : 0..<0
    return reached.lazy.map { replication in
      let base = Int128(replication) * Int128(devices)
      let lower = Int(max(first - base, 0))
      let upper = Int(min(end - base, Int128(devices)))
      return Piece(replication: replication, devices: lower..<upper)
    }
  }

  /// The devices of one replication that a shard simulates.
  public struct Piece: Hashable, Sendable {
    public let replication: Int
    public let devices: Range<Int>

    public init(replication: Int, devices: Range<Int>) {
      self.replication = replication
      self.devices = devices
    }
  }
}
