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
    var headers: [PartialResult.Header] = []
    for part in parts { headers.append(try PartialResult.header(of: part.bytes, path: part.path)) }
    let first = headers[0]
    for header in headers.dropFirst() { try Self.check(header, against: first) }

    var byShard: [Int: PartialResult.Header] = [:]
    for header in headers {
      if let earlier = byShard[header.shard.index] {
        throw .duplicate(shard: header.shard, paths: [earlier.path, header.path])
      }
      byShard[header.shard.index] = header
    }
    let missing = (0..<first.shard.count).filter { byShard[$0] == nil }
    guard missing.isEmpty else { throw .missing(shards: missing, count: first.shard.count) }

    let scenario = try PartialResult(
      benchVersion: first.benchVersion, scenarioFile: first.scenarioFile, seed: first.seed, devices: first.devices,
      replications: first.replications, shard: first.shard, pieces: []
    ).scenario(path: first.path)
    let plan = SimulationPlan(scenario)
    var tallies = Array(repeating: RunTally(plan: plan), count: first.replications)
    for header in byShard.values.sorted(by: { $0.shard.index < $1.shard.index }) {
      let part = try PartialResult.decode(header, plan: plan)
      for piece in part.pieces { tallies[piece.piece.replication].merge(piece.tally) }
    }
    self.scenario = scenario
    self.plan = plan
    self.tallies = tallies
  }

  /// Refuses a part that is not of the same run as the first.
  private static func check(_ header: PartialResult.Header, against first: PartialResult.Header) throws(ShardError) {
    let fields: [(String, (PartialResult.Header) -> String)] = [
      ("scenario (SHA-256)", { $0.scenarioDigest }),
      ("seed", { String($0.seed) }),
      ("devices", { String($0.devices) }),
      ("replications", { String($0.replications) }),
      ("shard count", { String($0.shard.count) }),
      ("bench version", { $0.benchVersion }),
    ]
    for (name, value) in fields where value(header) != value(first) {
      throw .mismatch(
        field: name, path: header.path, value: value(header), otherPath: first.path, otherValue: value(first))
    }
  }
}
