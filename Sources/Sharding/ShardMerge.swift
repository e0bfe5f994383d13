import ScenarioFormat
import Simulation

/// Puts the parts of a sharded run back together: checks that they are parts
/// of one run and cover every shard exactly once, then adds their counts, per
/// replication, into the tallies a one-machine run of the same scenario and
/// seed would have made.
public struct ShardMerge: Sendable {
  /// The scenario, with the seed and population the shards used.
  public let scenario: Scenario
  public let plan: SimulationPlan
  /// One tally per replication, in order.
  public let tallies: [RunTally]

  /// Merges part files, given as their paths and bytes.
  ///
  /// - Throws: `ShardError` naming the first part that cannot be merged: one
  ///   that is not a part, cut short or altered, of another run (scenario,
  ///   seed, devices, replications, shard count or bench version), a shard
  ///   given twice, or the shards no part holds.
  public init(parts: [(path: String, bytes: [UInt8])]) throws(ShardError) {
    guard !parts.isEmpty else { throw .noParts }
    var opened: [PartialResult.Opened] = []
    for part in parts { opened.append(try PartialResult.open(part.bytes, path: part.path)) }
    let first = opened[0]
    for part in opened.dropFirst() { try Self.check(part, against: first) }

    var byShard: [Int: PartialResult.Opened] = [:]
    for part in opened {
      if let earlier = byShard[part.header.shard.index] {
        throw .duplicate(shard: part.header.shard, paths: [earlier.path, part.path])
      }
      byShard[part.header.shard.index] = part
    }
    let count = first.header.shard.count
    if byShard.count < count {
      // Walks no further than the parts given and the few shards it names,
      // whatever the shard count claims.
      var named: [Int] = []
      var index = 0
      while named.count < ShardError.missingNamed, index < count {
        if byShard[index] == nil { named.append(index) }
        index += 1
      }
      let slash = first.path.lastIndex(of: "/")
      let folder = slash.map { $0 == first.path.startIndex ? "/" : String(first.path[..<$0]) } ?? "."
      throw .missing(
        shards: named, total: count - byShard.count, count: count, replications: first.header.replications, folder: folder)
    }

    let scenario = try first.header.scenario(path: first.path)
    let plan = SimulationPlan(scenario)
    // Every part is decoded before any tally is made, so that a replication
    // count is only trusted once the files hold its pieces.
    var decoded: [PartialResult] = []
    for part in byShard.values.sorted(by: { $0.header.shard.index < $1.header.shard.index }) {
      decoded.append(try part.decode(plan: plan))
    }
    var tallies = Array(repeating: RunTally(plan: plan), count: first.header.replications)
    for part in decoded {
      for piece in part.pieces { tallies[piece.piece.replication].merge(piece.tally) }
    }
    self.scenario = scenario
    self.plan = plan
    self.tallies = tallies
  }

  /// Refuses a part that is not of the same run as the first.
  private static func check(_ part: PartialResult.Opened, against first: PartialResult.Opened) throws(ShardError) {
    let fields: [(String, (PartHeader) -> String)] = [
      ("scenario (SHA-256)", { $0.scenarioDigest }),
      ("seed", { String($0.seed) }),
      ("devices", { String($0.devices) }),
      ("replications", { String($0.replications) }),
      ("shard count", { String($0.shard.count) }),
      ("bench version", { $0.benchVersion }),
    ]
    for (name, value) in fields where value(part.header) != value(first.header) {
      throw .mismatch(
        field: name, path: part.path, value: value(part.header), otherPath: first.path, otherValue: value(first.header))
    }
  }
}
