import ArgumentParser
import Foundation
import Testing

@testable import BenchCLI

/// `bench merge` and `bench run` parsed once each and run in this process, as the executable would
/// run them: in a debug build swift-argument-parser checks a command's whole configuration at every
/// parse (its `#if DEBUG` validators). Parsed five times for each scenario, the suite took 5.0 s of
/// CPU alone; parsed once, 3.6 s. The runs differ only in the fields set here (the scenario,
/// `--shard`, `--out`, `--threads`; the parts and `--out` of a merge), checked by the command's
/// `validate()` as `parse` does. Parsing itself, and the root's dispatch, are tested through the
/// executable (`BenchProcess`).
private struct ParsedCommands {
  let run: Bench.Run
  let merge: Bench.Merge

  init(run arguments: [String]) throws {
    run = try Bench.Run.parse(arguments)
    merge = try Bench.Merge.parse(["--quiet"])
  }

  func run(scenario: String, shard: String?, out: String, threads: Int) async throws {
    var command = run
    command.options.scenario = scenario
    command.shard = shard
    command.out = out
    command.threads = threads
    try command.validate()
    try await command.run()
  }

  func merge(_ parts: [String], out: String) async throws {
    var command = merge
    command.parts = parts
    command.out = out
    try command.validate()
    try await command.run()
  }
}

private func files(in folder: URL) throws -> [String: Data] {
  var files: [String: Data] = [:]
  for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
    files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
  }
  return files
}

@Suite struct ShardCommandTests {
  /// Shards and merge give the one-machine run's folder, byte for byte, for
  /// any number of shards, on every scenario.
  @Test func mergedShardsWriteTheOneMachineReportOnEveryScenario() async throws {
    let names = try committedScenarioNames()
    #expect(names.count >= 20)
    let commands = try ParsedCommands(run: [
      committedScenario(names[0]), "--devices", "150", "--seed", "3", "--replications", "2", "--quiet",
    ])
    for name in names {
      let root = try temporaryFolder(), scenario = committedScenario(name)
      try await commands.run(scenario: scenario, shard: nil, out: root.appendingPathComponent("whole").path, threads: 2)
      let whole = try files(in: root.appendingPathComponent("whole/\(name)"))
      #expect(whole["report.md"] != nil && whole["results.json"] != nil)
      for count in [1, 2, 3, 7] {
        let parts = root.appendingPathComponent("parts-\(count)")
        for index in 0..<count {
          try await commands.run(scenario: scenario, shard: "\(index)/\(count)", out: parts.path, threads: 1)
        }
        let partFiles = (0..<count).map { parts.appendingPathComponent("\(name).shard-\($0)-of-\(count).part").path }
        let out = root.appendingPathComponent("merged-\(count)")
        try await commands.merge(partFiles.reversed(), out: out.path)
        #expect(try files(in: out.appendingPathComponent(name)) == whole, "\(name) in \(count) shards")
      }
    }
  }

  @Test func aShardSaysWhatItSimulatedAndWhereItsPartIs() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      committedScenario("upgrade"), "--devices", "1000", "--replications", "3", "--shard", "1/4", "--out", out.path,
    ])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput == """
      Simulated shard 1/4: 750 of 3,000 device runs (1,000 devices × 3 replications).
      Wrote \(out.appendingPathComponent("upgrade.shard-1-of-4.part").path)

      """)
  }

  /// A shard only counts; the merge analyses, so it takes the analysis options.
  @Test func analysisOptionsGoToTheMergeNotTheShard() throws {
    let out = try temporaryFolder()
    let shard = try BenchProcess.run([
      committedScenario("aa-test"), "--devices", "100", "--shard", "0/1", "--alpha", "0.01", "--out", out.path,
    ])
    #expect(shard.status == 64)
    let refusal = "Error: --alpha, --mde, --power, --success-metric and --guardrail set the analysis, which `bench merge` "
      + "runs on the parts: give them to bench merge.\n"
    #expect(shard.standardError.hasPrefix(refusal))
    // The decision's roles too: a shard would drop them without a word.
    let guarded = try BenchProcess.run([
      committedScenario("aa-test"), "--devices", "100", "--shard", "0/1", "--guardrail", "converted=0.02", "--out", out.path,
    ])
    #expect(guarded.status == 64)
    #expect(guarded.standardError.hasPrefix(refusal))
    #expect(try BenchProcess.run([
      committedScenario("aa-test"), "--devices", "100", "--shard", "0/1", "--out", out.path, "--quiet",
    ]).status == 0)
    let merged = try BenchProcess.run([
      "merge", out.appendingPathComponent("aa-test.shard-0-of-1.part").path, "--alpha", "0.01", "--out", out.path, "--quiet",
    ])
    #expect(merged.status == 0, "\(merged.standardError)")
    let report = try String(contentsOf: out.appendingPathComponent("aa-test/report.md"), encoding: .utf8)
    #expect(report.contains("Alpha 0.01,"))
  }

  @Test func mergeNamesWhatIsWrongInOneLine() throws {
    let out = try temporaryFolder()
    let shard = try BenchProcess.run([
      committedScenario("upgrade"), "--devices", "100", "--replications", "1", "--shard", "0/2", "--out", out.path, "--quiet",
    ])
    #expect(shard.status == 0)
    let part = out.appendingPathComponent("upgrade.shard-0-of-2.part").path
    let missing = try BenchProcess.run(["merge", part, "--out", out.path])
    #expect(missing.status == 1)
    #expect(missing.standardError
      == "Error: shard 1/2 missing: run it with `bench run SCENARIO --replications 1 --shard K/2 --out \(out.path)` and merge again.\n")
    let unreadable = try BenchProcess.run(["merge", part, "/nonexistent/x.part"])
    #expect(unreadable.standardError == "Error: /nonexistent/x.part: cannot be read: check the path.\n")
    let none = try BenchProcess.run(["merge"])
    #expect(none.standardError.hasPrefix("Error: merge: no part files given"))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("upgrade").path))
  }

  @Test func shardOptionsAreChecked() throws {
    let cases = [
      (["--shard", "2/2"], "Error: --shard: '2/2' is not a shard: write K/N with 0 ≤ K < N, e.g. --shard 0/4.\n"),
      (
        ["--shard", "0/2", "--events", "e.csv"],
        "Error: --events cannot go with --shard: a shard simulates only some devices; write events with a run without --shard.\n"
      ),
    ]
    for (options, message) in cases {
      let result = try BenchProcess.run([committedScenario("upgrade")] + options)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix(message), "\(options)")
    }
  }
}
