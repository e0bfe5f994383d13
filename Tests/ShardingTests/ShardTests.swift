import Sharding
import Testing

@Suite struct ShardTests {
  @Test func theShardsOfARunCoverEveryDeviceOfEveryReplicationOnce() throws {
    for (replications, devices) in [(1, 1), (1, 10), (3, 10), (2, 16_385), (5, 7)] {
      for count in [1, 2, 3, 7, 40] {
        var covered = Array(repeating: [Int](repeating: 0, count: devices), count: replications)
        var sizes: [Int] = []
        for index in 0..<count {
          let pieces = try Shard(index: index, count: count).pieces(replications: replications, devices: devices)
          sizes.append(pieces.map(\.devices.count).reduce(0, +))
          for piece in pieces {
            #expect(!piece.devices.isEmpty)
            for device in piece.devices { covered[piece.replication][device] += 1 }
          }
        }
        #expect(covered.allSatisfy { $0.allSatisfy { $0 == 1 } }, "\(replications)×\(devices) in \(count)")
        // Shards differ by at most one device run.
        #expect(sizes.max()! - sizes.min()! <= 1)
      }
    }
  }

  @Test func aShardCrossingReplicationsTakesTheEndOfOneAndTheStartOfTheNext() throws {
    let pieces = try Shard(index: 1, count: 3).pieces(replications: 3, devices: 10)
    #expect(pieces == [
      Shard.Piece(replication: 1, devices: 0..<10),
    ])
    let second = try Shard(index: 1, count: 4).pieces(replications: 3, devices: 10)
    #expect(second == [Shard.Piece(replication: 0, devices: 7..<10), Shard.Piece(replication: 1, devices: 0..<5)])
  }

  @Test func aShardIsKOverNWithKBelowN() throws {
    #expect(try Shard(parsing: "0/4") == Shard(index: 0, count: 4))
    #expect(try Shard(parsing: "3/4").description == "3/4")
    for text in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3", "", " 1/2"] {
      #expect(throws: ShardError.invalidShard(text)) { try Shard(parsing: text) }
    }
    #expect(
      ShardError.invalidShard("4/4").description
        == "--shard: '4/4' is not a shard: write K/N with 0 ≤ K < N, e.g. --shard 0/4.")
  }

  @Test func moreShardsThanDeviceRunsLeaveSomeEmpty() throws {
    let pieces = (0..<5).map { try! Shard(index: $0, count: 5).pieces(replications: 1, devices: 3) }
    #expect(pieces.map(\.count) == [0, 1, 0, 1, 1])
  }
}
