import Digests
import Foundation
import LabTestKit
import Sharding
import Testing

/// A part's checksum proves it was not damaged, not that a run wrote it. A
/// part whose counts were changed and re-checksummed, one count at a time,
/// each within the range a single count may hold, is either refused with a
/// one-line error or merged and analysed; `bench merge` never traps on it.
@Suite struct ImpossiblePartTests {
  @Test(arguments: ["winsorized-revenue", "upgrade", "ratio-metrics", "apptimize-enrollment"])
  func aRechecksummedPartWithAnyCountChangedNeverTraps(scenario: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("impossible-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let devices = 400, trials = 25
    let made = try BenchProcess.run([
      // Two replications: the replications path is in the part, and each of the 100 merges analyses it.
      committedScenario(scenario), "--devices", String(devices), "--replications", "2", "--shard", "0/1", "--out", folder.path, "--quiet",
    ])
    try #require(made.status == 0, "\(made.standardError)")
    let part = folder.appendingPathComponent("\(scenario).shard-0-of-1.part")
    let text = try String(contentsOf: part, encoding: .utf8)
    let checksum = try #require(text.range(of: "\nsha256 "))
    let body = String(text[..<checksum.lowerBound])
    var lines = body.components(separatedBy: "\n")
    let countsLine = try #require(lines.indices.last)
    let counts = lines[countsLine].components(separatedBy: " ")
    let daysField = try #require(text.range(of: "\"days\": "))
    let days = try #require(Int(text[daysField.upperBound...].prefix { $0.isNumber }))
    let limit = devices * days * 64
    var generator = SeededGenerator(seed: UInt64(scenario.utf8.count) * 7919)
    var refused = 0, merged = 0
    for trial in 0..<trials {
      var changed = counts
      let index = Int.random(in: 0..<counts.count, using: &generator)
      // Counts are whole numbers, 128-bit sums or "-"; each gets a value of its own kind.
      let value: String
      if Int(counts[index]) != nil {
        value = String([0, 1, limit, Int.random(in: 0...limit, using: &generator)][trial % 4])
      } else if counts[index] == "-" {
        value = String(Int.random(in: 0...limit, using: &generator))
      } else {
        value = [String(UInt128.max), "0", String(Int128.min), String(UInt64.random(in: 0...UInt64.max, using: &generator))][trial % 4]
      }
      changed[index] = value
      lines[countsLine] = changed.joined(separator: " ")
      let damaged = lines.joined(separator: "\n") + "\n"
      let file = folder.appendingPathComponent("damaged-\(trial).part")
      try Data((damaged + "sha256 \(SHA256.hex(of: Array(damaged.utf8)))\n").utf8).write(to: file)
      let result = try BenchProcess.run(["merge", file.path, "--out", folder.appendingPathComponent("out").path, "--quiet"])
      let what = "\(scenario): count \(index) set to \(value)"
      #expect(result.status == 0 || result.status == 1, "\(what): exit status \(result.status)\n\(result.standardError)")
      if result.status == 1 {
        refused += 1
        #expect(result.standardError.hasPrefix("Error: ") && result.standardError.filter { $0 == "\n" }.count == 1, "\(what)")
      } else {
        merged += 1
      }
    }
    #expect(refused + merged == trials)
    #expect(refused > 0)
  }
}
