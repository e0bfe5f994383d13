import Platforms
@testable import Sharding
import Digests
import Foundation
import ScenarioFormat
import Simulation
import Testing

/// The committed scenarios, for tests that walk them all.
let scenarioFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("scenarios")

func committedScenarioFiles() throws -> [URL] {
  try FileManager.default.contentsOfDirectory(at: scenarioFolder, includingPropertiesForKeys: nil)
    .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
}

/// The parts of a run, encoded as `bench run --shard` writes them.
func parts(
  of file: URL, count: Int, devices: Int = 300, replications: Int = 2, seed: UInt64 = 7, benchVersion: String = "test"
) async throws -> [(path: String, bytes: [UInt8])] {
  let bytes = try Array(Data(contentsOf: file))
  var scenario = try Scenario.parse(Data(bytes)).scenario
  scenario.devices = devices
  scenario.seed = seed
  let simulator = Simulator(plan: SimulationPlan(scenario), batchSize: 64)
  var parts: [(path: String, bytes: [UInt8])] = []
  for index in 0..<count {
    let shard = try Shard(index: index, count: count)
    var pieces: [PartialResult.PieceTally] = []
    for piece in shard.pieces(replications: replications, devices: devices) {
      let tally = await simulator.run(replication: piece.replication, devices: piece.devices, threads: 2)
      pieces.append(PartialResult.PieceTally(piece: piece, tally: tally))
    }
    let part = PartialResult(
      header: PartHeader(
        benchVersion: benchVersion, scenarioFile: bytes, seed: seed, devices: devices, replications: replications,
        shard: shard),
      pieces: pieces)
    parts.append((PartialResult.fileName(scenario: scenario.name, shard: shard), part.encoded()))
  }
  return parts
}

@Suite struct ShardMergeTests {
  @Test func mergedPartsHoldTheOneMachineTalliesOnEveryScenario() async throws {
    let files = try committedScenarioFiles()
    #expect(files.count >= 20)
    for file in files {
      var scenario = try Scenario.parse(Data(contentsOf: file)).scenario
      scenario.devices = 300
      scenario.seed = 7
      let simulator = Simulator(plan: SimulationPlan(scenario))
      var whole: [RunTally] = []
      for replication in 0..<2 { whole.append(await simulator.run(replication: replication, threads: 1)) }
      for count in [1, 3] {
        let merged = try ShardMerge(parts: try await parts(of: file, count: count))
        #expect(merged.tallies == whole, "\(file.lastPathComponent) in \(count) shards")
        #expect(merged.scenario.devices == 300 && merged.scenario.seed == 7)
      }
      // The tallies compared are not empty ones.
      #expect(whole[0].devices == 300 && whole[0].launches > 0)
    }
  }

  @Test func theOrderOfThePartsDoesNotMatter() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let inOrder = try ShardMerge(parts: try await parts(of: file, count: 4))
    let reversed = try ShardMerge(parts: try await parts(of: file, count: 4).reversed())
    #expect(inOrder.tallies == reversed.tallies)
  }

  @Test func aMissingShardIsNamed() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    var pieces = try await parts(of: file, count: 7)
    pieces.remove(at: 5)
    pieces.remove(at: 2)
    let missing = ShardError.missing(shards: [2, 5], total: 2, count: 7, replications: 2, folder: ".")
    #expect(throws: missing) { try ShardMerge(parts: pieces) }
    #expect(missing.description
      == "shards 2/7, 5/7 missing: run them with `bench run SCENARIO --replications 2 --shard K/7 --out .` and merge again.")
    // The folder of the parts given, quoted where a shell would split or expand it.
    let moved = pieces.map { (path: "my parts/$run/" + $0.path, bytes: $0.bytes) }
    #expect(throws: ShardError.missing(shards: [2, 5], total: 2, count: 7, replications: 2, folder: "my parts/$run")) {
      try ShardMerge(parts: moved)
    }
    #expect(ShellWord.quoted("my parts/$run") == "'my parts/$run'")
    #expect(ShellWord.quoted("it's") == #"'it'\''s'"#)
    #expect(ShellWord.quoted("parts/run-2") == "parts/run-2")
    #expect(throws: ShardError.noParts) { try ShardMerge(parts: []) }
  }

  /// A shard count far beyond the parts given (a mistyped --shard) names the
  /// first missing shards and counts the rest, without walking them all.
  @Test func aHugeShardCountIsNamedNotWalked() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let pieces = try await parts(of: file, count: 1, replications: 1)
    let bytes = try Array(Data(contentsOf: file))
    let empty = PartialResult(
      header: PartHeader(
        benchVersion: "test", scenarioFile: bytes, seed: 7, devices: 300, replications: 1,
        shard: try Shard(index: 0, count: 1_000_000_000_000)),
      pieces: [])
    #expect(pieces.count == 1)
    #expect(
      throws: ShardError.missing(
        shards: Array(1...8), total: 999_999_999_999, count: 1_000_000_000_000, replications: 1, folder: ".")
    ) {
      try ShardMerge(parts: [(path: "empty.part", bytes: empty.encoded())])
    }
  }

  /// A header that claims more replications than its file holds fails on the
  /// first missing piece instead of making a tally for each.
  @Test func aPartClaimingMoreReplicationsThanItHoldsIsCorrupt() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let bytes = try Array(Data(contentsOf: file))
    let claim = PartialResult(
      header: PartHeader(
        benchVersion: "test", scenarioFile: bytes, seed: 7, devices: 300, replications: 100_000,
        shard: try Shard(index: 0, count: 1)),
      pieces: [])
    #expect(throws: ShardError.corrupt(path: "claim.part", problem: "it holds fewer pieces than its shard")) {
      try ShardMerge(parts: [(path: "claim.part", bytes: claim.encoded())])
    }
  }

  @Test func aShardGivenTwiceIsRefused() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let pieces = try await parts(of: file, count: 2)
    let twice = pieces + [(path: "copy.part", bytes: pieces[1].bytes)]
    #expect(throws: ShardError.duplicate(shard: try Shard(index: 1, count: 2), paths: [pieces[1].path, "copy.part"])) {
      try ShardMerge(parts: twice)
    }
  }

  @Test func partsOfAnotherRunAreRefusedWithTheFieldThatDiffers() async throws {
    let upgrade = scenarioFolder.appendingPathComponent("upgrade.json")
    let base = try await parts(of: upgrade, count: 2)
    let others: [(String, [(path: String, bytes: [UInt8])])] = [
      ("scenario (SHA-256)", try await parts(of: scenarioFolder.appendingPathComponent("deleted-variant.json"), count: 2)),
      ("seed", try await parts(of: upgrade, count: 2, seed: 8)),
      ("devices", try await parts(of: upgrade, count: 2, devices: 301)),
      ("replications", try await parts(of: upgrade, count: 2, replications: 1)),
      ("shard count", try await parts(of: upgrade, count: 3)),
      ("bench version", try await parts(of: upgrade, count: 2, benchVersion: "other")),
    ]
    for (field, other) in others {
      let mixed = [base[0], (path: "other.part", bytes: other[1].bytes)]
      #expect {
        try ShardMerge(parts: mixed)
      } throws: { error in
        guard case .mismatch(let name, let path, _, let otherPath, _) = error as? ShardError else { return false }
        return name == field && path == "other.part" && otherPath == base[0].path
      }
    }
  }

  @Test func aPartCutShortOrAlteredIsNeverMerged() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let pieces = try await parts(of: file, count: 2)
    let bytes = pieces[1].bytes
    for cut in [bytes.count - 1, bytes.count - 70, bytes.count / 2, 100] {
      #expect(throws: ShardError.truncated(path: "cut.part")) {
        try ShardMerge(parts: [pieces[0], (path: "cut.part", bytes: Array(bytes.prefix(cut)))])
      }
    }
    // One digit changed in the counts: the checksum no longer holds.
    var altered = bytes
    let digit = altered.lastIndex(of: UInt8(ascii: "1"))!
    altered[digit] = UInt8(ascii: "2")
    #expect(throws: ShardError.checksumMismatch(path: "altered.part")) {
      try ShardMerge(parts: [pieces[0], (path: "altered.part", bytes: altered)])
    }
    #expect(throws: ShardError.notAPart(path: "other.json")) {
      try ShardMerge(parts: [(path: "other.json", bytes: Array("{}".utf8))])
    }
    // Copied as text through Windows: the line ends are named, before the checksum is looked at.
    let crlf = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
    #expect(throws: ShardError.windowsLineEnds(path: "windows.part")) {
      try ShardMerge(parts: [pieces[0], (path: "windows.part", bytes: crlf)])
    }
    #expect(ShardError.windowsLineEnds(path: "w.part").description
      == "w.part: its lines end in CR LF, so it was copied as text through Windows: copy the part as binary "
      + "(or convert it back, e.g. dos2unix) and merge again.")
  }

  /// A valid checksum over a header no run could write: more devices or
  /// replications than the limits allow.
  @Test func aPartClaimingMoreThanARunMayHaveIsCorrupt() throws {
    let bytes = try Array(Data(contentsOf: scenarioFolder.appendingPathComponent("upgrade.json")))
    for (devices, replications) in [(2_000_000_000, 1), (1_000_000_000_000_000, 1), (100, 100_001)] {
      let part = PartialResult(
        header: PartHeader(
          benchVersion: "test", scenarioFile: bytes, seed: 7, devices: devices, replications: replications,
          shard: try Shard(index: 0, count: 1)),
        pieces: [])
      #expect(
        throws: ShardError.corrupt(
          path: "big.part",
          problem: "it claims \(devices) devices and \(replications) replications, beyond the 1000000000 devices and "
            + "100000 replications a run may have")
      ) { try ShardMerge(parts: [(path: "big.part", bytes: part.encoded())]) }
    }
  }

  /// A valid checksum over a count no run could have counted (a negative
  /// one, or one at Int's top, which a merge would overflow on).
  @Test func aPartWithAnImpossibleCountIsCorrupt() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let pieces = try await parts(of: file, count: 1, replications: 1)
    for impossible in ["-5", String(Int.max)] {
      var text = String(decoding: pieces[0].bytes, as: UTF8.self)
      text = String(text[..<text.range(of: "\nsha256 ")!.lowerBound])
      // The last count of the piece, replaced.
      let lastSpace = text.lastIndex(of: " ")!
      text = String(text[...lastSpace]) + impossible + "\n"
      let damaged = Array(text.utf8) + Array("sha256 \(SHA256.hex(of: Array(text.utf8)))\n".utf8)
      #expect(
        throws: ShardError.corrupt(
          path: "impossible.part", problem: "it holds the count \(impossible), which no run of its devices and days can count")
      ) { try ShardMerge(parts: [(path: "impossible.part", bytes: damaged)]) }
    }
  }

  @Test func aPartWithAValidChecksumButTooFewCountsIsCorrupt() async throws {
    let file = scenarioFolder.appendingPathComponent("upgrade.json")
    let pieces = try await parts(of: file, count: 1, replications: 1)
    var text = String(decoding: pieces[0].bytes, as: UTF8.self)
    // Drop the last count and write a checksum that matches the damage.
    text = String(text[..<text.range(of: "\nsha256 ")!.lowerBound])
    let lastSpace = text.lastIndex(of: " ")!
    text = String(text[..<lastSpace]) + "\n"
    let damaged = Array(text.utf8) + Array("sha256 \(SHA256.hex(of: Array(text.utf8)))\n".utf8)
    #expect(throws: ShardError.corrupt(path: "short.part", problem: "it holds fewer counts than its scenario needs")) {
      try ShardMerge(parts: [(path: "short.part", bytes: damaged)])
    }
  }
}
