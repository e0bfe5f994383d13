import BenchCLI
import Foundation
import Testing

/// The repository's root, to run the committed scenarios.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func committedScenario(_ name: String) -> String {
  repositoryRoot.appendingPathComponent("scenarios/\(name).json").path
}

/// The names of every scenario in scenarios/, sorted, so that a new scenario
/// is covered by the tests that walk them all.
func committedScenarioNames() throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("scenarios").path)
    .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
}

/// The folder every temporary file and folder of these tests goes in, one
/// per test process and removed when it exits, so that a run of the suite
/// leaves nothing in the temporary directory.
let testScratch: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "lab-bench-tests-\(ProcessInfo.processInfo.processIdentifier)")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  atexit { try? FileManager.default.removeItem(at: testScratch) }
  return url
}()

func temporaryFolder() throws -> URL {
  let url = testScratch.appendingPathComponent("bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite struct RunCommandTests {
  @Test func itWritesResultsAndSaysWhere() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([committedScenario("upgrade"), "--devices", "400", "--out", out.path])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput == """
      Simulated 400 devices over 90 days, 200 replications.
      Wrote \(out.appendingPathComponent("upgrade/report.md").path) and results.json

      """)
    let results = try String(contentsOf: out.appendingPathComponent("upgrade/results.json"), encoding: .utf8)
    #expect(results.hasPrefix("{\n  \"scenario\": \"upgrade\",\n  \"seed\": 20261122,\n  \"devices\": 400,"))
    let html = try BenchProcess.run([committedScenario("upgrade"), "--devices", "400", "--out", out.path, "--html"])
    #expect(html.standardOutput.hasSuffix("Wrote \(out.appendingPathComponent("upgrade/report.md").path), report.html and results.json\n"))
  }

  @Test func twoRunsWriteTheSameBytesWhateverTheThreads() throws {
    let first = try temporaryFolder(), second = try temporaryFolder()
    let arguments = [committedScenario("upgrade"), "--devices", "600", "--quiet", "--seed", "9"]
    let runs = [
      try BenchProcess.run(arguments + ["--out", first.path, "--threads", "1", "--events", first.appendingPathComponent("e.csv").path]),
      try BenchProcess.run(arguments + ["--out", second.path, "--threads", "2", "--events", second.appendingPathComponent("e.csv").path]),
    ]
    #expect(runs.map(\.status) == [0, 0])
    #expect(runs.map(\.standardOutput) == ["", ""])
    for file in ["upgrade/results.json", "upgrade/report.md", "e.csv", "e-outcomes.csv"] {
      let a = try Data(contentsOf: first.appendingPathComponent(file)), b = try Data(contentsOf: second.appendingPathComponent(file))
      #expect(a == b, "\(file)")
      #expect(!a.isEmpty)
    }
    let results = try String(contentsOf: first.appendingPathComponent("upgrade/results.json"), encoding: .utf8)
    #expect(results.contains("\"seed\": 9,"))
  }

  /// Replications run side by side on two threads (a population of one
  /// batch) or one after another on one: the calibration is the same to the
  /// byte, with and without the first replication's events.
  @Test func replicationsWriteTheSameBytesWhateverTheThreads() throws {
    for events in [false, true] {
      let first = try temporaryFolder(), second = try temporaryFolder()
      let arguments = [committedScenario("true-effect"), "--devices", "300", "--replications", "7", "--quiet"]
      func extra(_ folder: URL) -> [String] { events ? ["--events", folder.appendingPathComponent("e.csv").path] : [] }
      let runs = [
        try BenchProcess.run(arguments + ["--out", first.path, "--threads", "1"] + extra(first)),
        try BenchProcess.run(arguments + ["--out", second.path, "--threads", "2"] + extra(second)),
      ]
      #expect(runs.map(\.status) == [0, 0])
      for file in ["true-effect/results.json", "true-effect/report.md"] {
        let a = try Data(contentsOf: first.appendingPathComponent(file)), b = try Data(contentsOf: second.appendingPathComponent(file))
        #expect(a == b, "\(file)")
      }
      let results = try String(contentsOf: first.appendingPathComponent("true-effect/results.json"), encoding: .utf8)
      #expect(results.contains("\"replications\": 7,") && results.contains("\"rightShip\""))
    }
  }

  @Test func aBadScenarioGivesOneLineAndLeavesTheOldResults() throws {
    let out = try temporaryFolder()
    let good = try BenchProcess.run([committedScenario("deleted-variant"), "--devices", "50", "--out", out.path, "--quiet"])
    #expect(good.status == 0)
    let resultsURL = out.appendingPathComponent("deleted-variant/results.json")
    let before = try Data(contentsOf: resultsURL)
    let text = try String(contentsOfFile: committedScenario("deleted-variant"), encoding: .utf8)
      .replacingOccurrences(of: #""weight": 3"#, with: #""weight": -1"#)
    let result = try BenchProcess.run([try BenchProcess.temporaryFile(text), "--out", out.path])
    #expect(result.status == 1)
    #expect(result.standardOutput == "")
    #expect(result.standardError
      == "Error: versions[1].experiments[0].variants[1].weight: must be greater than 0: a plan stops showing a variant by "
      + "deleting it from the version (docs/rules/DeletedVariant.md)\n")
    #expect(try Data(contentsOf: resultsURL) == before)
  }

  /// A run that replaces another run's report (another seed, size or number of replications) says
  /// so and how to keep both; the same run again replaces nothing worth a word.
  @Test func replacingAnotherRunsReportIsSaid() throws {
    let out = try temporaryFolder()
    func run(_ replications: String) throws -> String {
      let result = try BenchProcess.run([
        committedScenario("aa-test"), "--devices", "200", "--replications", replications, "--out", out.path,
      ])
      #expect(result.status == 0, "\(result.standardError)")
      return result.standardOutput
    }
    let first = try run("1")
    #expect(!first.contains("Replaced"))
    let seed = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("aa-test/results.json"))) as? [String: Any])["seed"]
    let second = try run("2")
    #expect(second.hasSuffix(
      "Replaced \(out.appendingPathComponent("aa-test").relativePath)/, which held a run of 200 devices, 1 replication, "
        + "seed \(try #require(seed)): pass --out FOLDER to keep both.\n"))
    #expect(!(try run("2")).contains("Replaced"))
  }

  @Test func badOptionsNameTheFlagAndTheFix() throws {
    let cases = [
      (["--devices", "0"], "Error: --devices must lie between 1 and 1000000000, not 0, e.g. --devices 10000.\n"),
      (["--devices", "4611686018427387904"], "Error: --devices must lie between 1 and 1000000000, not 4611686018427387904, e.g. --devices 10000.\n"),
      (["--threads", "0"], "Error: --threads must lie between 1 and 1024, not 0, e.g. --threads 2.\n"),
      (["--replications", "0"], "Error: --replications must lie between 1 and 100000, not 0, e.g. --replications 200.\n"),
    ]
    for (options, message) in cases {
      let result = try BenchProcess.run([committedScenario("upgrade")] + options)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix(message), "\(options)")
    }
  }

  /// `--devices 1e9` once just started, for weeks: the estimate refuses it
  /// in a second, stating what it would take, unless asked.
  @Test func aRunBeyondAnHourIsRefusedWithItsEstimate() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      committedScenario("upgrade"), "--devices", "1000000000", "--replications", "1000", "--threads", "2", "--out", out.path,
    ])
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix("Error: this run would need about "))
    #expect(result.standardError.contains(" days on 2 threads ("))
    #expect(result.standardError.hasSuffix(
      ", beyond the hour and 8 GB a run takes unless asked: lower --devices or --replications, or add --allow-large-run.\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
  }

  @Test func anUnwritableOutputFolderIsAClearError() throws {
    let file = try BenchProcess.temporaryFile("not a folder")
    let result = try BenchProcess.run([committedScenario("deleted-variant"), "--devices", "10", "--out", file])
    #expect(result.status == 1)
    #expect(result.standardError == "Error: \(file): is a file, not a folder; check that the folder is writable or choose another with --out\n")
  }

  /// A table that cannot be written names the option that gave its path, not --out.
  @Test func anUnwritableTableNamesItsOption() throws {
    let file = try BenchProcess.temporaryFile("not a folder"), out = try temporaryFolder()
    let events = try BenchProcess.run([
      committedScenario("deleted-variant"), "--devices", "10", "--replications", "1", "--out", out.path, "--events", "\(file)/events.csv",
    ])
    #expect(events.status == 1)
    #expect(events.standardError
      == "Error: --events: cannot write '\(file)' (is a file, not a folder): check that it is writable or choose another folder.\n")
    let outcomes = try BenchProcess.run([
      committedScenario("deleted-variant"), "--devices", "10", "--replications", "1", "--out", out.path,
      "--events", out.appendingPathComponent("events.csv").path, "--outcomes", "\(file)/outcomes.csv",
    ])
    #expect(outcomes.standardError.hasPrefix("Error: --outcomes: cannot write '\(file)' (is a file, not a folder)"))
  }

  @Test func theHelpSaysWhatTheCommandDoes() {
    #expect(Bench.helpMessage(for: Bench.Run.self, columns: 100) == """
      OVERVIEW: Simulate a scenario and write its results.

      Drives every device of the scenario through its app versions by Lab's rules, tests the outcomes,
      and writes <out>/<scenario name>/report.md with its charts and results.json. The same scenario and
      seed give the same files, byte for byte, whatever the thread count. With --shard K/N it simulates
      only the Kth of N equal pieces of the run and writes <out>/<scenario name>.shard-K-of-N.part;
      `bench merge` turns the N parts into the same files a run on one machine writes.

      USAGE: bench run [<options>] <scenario>

      ARGUMENTS:
        <scenario>              The scenario file (scenarios/ holds examples), or - for standard input.

      OPTIONS:
        --seed <seed>           Use this seed instead of the scenario's.
        --devices <devices>     Simulate this many devices instead of the scenario's number.
        --alpha <alpha>         The significance level, between 0 and 0.5 (default: the scenario's
                                analysis.alpha, else 0.05).
        --mde <lift>            The smallest relative lift worth detecting, between 0.001 and 10, e.g.
                                0.05 for 5% (default: the scenario's analysis.minimumDetectableEffect,
                                else 0.1).
        --power <power>         The chance of detecting that lift the sample must give, between 0.5 and 1
                                (default: the scenario's analysis.power, else 0.8).
        --success-metric <metric>
                                A metric a variant must improve to ship; repeat for several (default: the
                                scenario's analysis.successMetrics, else every metric that is not a
                                guardrail).
        --guardrail <metric=margin>
                                A metric a variant must be shown not to harm, with the largest acceptable
                                loss as a relative lift, e.g. revenue=0.02; repeat for several (adds to
                                the scenario's analysis.guardrails).
        --engine <engine>       A platform's analysis engine whose results page the report shows beside
                                the bench's decision; repeat for several: bench, gbstats-bayesian,
                                gbstats-frequentist, gbstats-sequential, confidence,
                                optimizely-stats-engine, eppo-sequential (default: the scenario's
                                analysis.engine, else bench alone; docs/engines.md).
        --engine-setting <engine.setting=value>
                                An engine's setting in place of its platform's default,
                                ENGINE.SETTING=VALUE, e.g. gbstats-bayesian.chanceToWin=0.9; repeat for
                                several (adds to the scenario's analysis.engineSettings; docs/engines.md
                                lists each engine's).
        --threads <threads>     Simulate on this many threads at once (default: the number of cores).
        --replications <replications>
                                Run the scenario this many times, each with a seed derived from the first
                                (default: 200, fewer for a plan of more than 2 million device-days; 1 for
                                a single draw).
        --out <folder>          The folder that receives <scenario name>/report.md and results.json
                                (default: reports), or with --shard the part file (default: parts).
        --shard <K/N>           Simulate only shard K of N (0 ≤ K < N) and write its part for `bench
                                merge`.
        --events <events>       Also write the first replication's analytics events to this CSV file.
        --outcomes <outcomes>   Where --events also writes the devices' outcomes (default: next to it,
                                <name>-outcomes.csv).
        --events-shape <tool>   Write --events as this tool exports them: amplitude, mixpanel, segment,
                                statsig or firebase (sessions, exposures and outcomes as events;
                                docs/world.md).
        --events-start <YYYY-MM-DD>
                                With --events-shape, the date of day 0 (default: the Monday 2026-01-05,
                                or the scenario's first weekday after it).
        --world-ends            Run the replications twice more, with every adoption curve at the slowest
                                and at the fastest end of its points' intervals (the 'low' and 'high'
                                bench fit writes), and say in the plan's section how far each decision
                                moves (docs/world.md).
        --html                  Also write report.html: the report in one self-contained file, charts
                                inline.
        --allow-large-run       Run even when the estimate exceeds an hour or 8 GB of memory.
        --quiet                 Print nothing but errors.
        --version               Show the version.
        -h, --help              Show help information.

      """)
  }
}

/// A seed of 2⁶³ or more is a seed like any other: results.json and
/// report.md both state it as given.
@Suite struct LargeSeedTests {
  @Test func theLargestSeedIsWrittenAsGiven() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run([
      committedScenario("aa-test"), "--seed", "18446744073709551615", "--devices", "50", "--out", out.path, "--quiet",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let results = try String(contentsOf: out.appendingPathComponent("aa-test/results.json"), encoding: .utf8)
    #expect(results.contains("\"seed\": 18446744073709551615,"))
    let report = try String(contentsOf: out.appendingPathComponent("aa-test/report.md"), encoding: .utf8)
    #expect(report.contains("seed 18446744073709551615"))
  }
}
