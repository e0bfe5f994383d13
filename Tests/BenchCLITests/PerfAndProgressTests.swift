import Foundation
import Testing

@testable import BenchCLI

@Suite struct PerfAndProgressTests {
  /// `bench perf --json` prints one object per configuration with the fields
  /// tools read; the figures themselves are for people, not for tests.
  @Test func perfPrintsOneJSONObjectPerConfiguration() throws {
    let result = try BenchProcess.run(["perf", "--devices", "2000", "4000", "--threads", "1", "2", "--json"])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 4)
    let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    #expect(objects.map { $0["devices"] as? Int } == [2000, 2000, 4000, 4000])
    #expect(objects.map { $0["threads"] as? Int } == [1, 2, 1, 2])
    // Five versions, one launch each.
    #expect(objects.map { $0["steps"] as? Int } == [10_000, 10_000, 20_000, 20_000])
    for object in objects {
      // However fast the machine, a time is printed to four significant
      // digits, never as 0, and the speed is the steps over that time.
      let seconds = try #require(object["seconds"] as? Double)
      let speed = try #require(object["stepsPerSecond"] as? Double)
      let steps = try #require(object["steps"] as? Int)
      #expect(seconds > 0)
      #expect(abs(speed - Double(steps) / seconds) <= 1e-3 * speed + 0.5, "\(object)")
      #expect((object["bytesPerDevice"] as? Double).map { $0 >= 0 } == true)
      #expect((object["referenceStepsPerSecond"] as? Double).map { $0 > 0 } == true)
      // The ratio is the two speeds' quotient, to its printed rounding.
      let ratio = try #require(object["ratio"] as? Double)
      let engine = try #require(object["stepsPerSecond"] as? Double)
      let reference = try #require(object["referenceStepsPerSecond"] as? Double)
      #expect(abs(ratio - engine / reference) < 0.01 * max(1, ratio))
    }
  }

  /// Times are printed to four significant digits, whatever their size: a
  /// fixed three decimals printed a fast machine's 0.4 ms as 0.000.
  @Test func timesKeepFourSignificantDigits() {
    #expect(Measurement.significant(0.000_412_345) == "0.0004123")
    #expect(Measurement.significant(0.012_345_6) == "0.01235")
    #expect(Measurement.significant(3.141_59) == "3.142")
    #expect(Measurement.significant(1234.567) == "1235")
    #expect(Measurement.significant(98_765.4) == "98765")
    #expect(Measurement.significant(1e-9) == "0.000000001000")
    #expect(Measurement.significant(0) == "0")
  }

  /// `bench perf --events` exports the workload's tables and reads them back:
  /// 1 activation and 1 display per device (the workload's experiments are
  /// disjoint, of one key each) and 1 outcome row.
  @Test func perfEventsCountsTheRowsItWritesAndReads() throws {
    let result = try BenchProcess.run(["perf", "--events", "--devices", "3000", "--json"])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["devices"] as? Int == 3000)
    #expect(object["rows"] as? Int == 9000)
    for name in ["simulationSeconds", "exportSeconds", "exportRowsPerSecond", "analyzeSeconds", "analyzeRowsPerSecond"] {
      #expect((object[name] as? Double).map { $0 > 0 } == true, "\(name)")
    }
  }

  /// `bench perf --outside-loop` times a scenario's run in its parts; the
  /// share is what the parts say.
  @Test func perfOutsideLoopSplitsARun() throws {
    let result = try BenchProcess.run([
      "perf", "--outside-loop", committedScenario("deleted-variant"), "--devices", "2000", "--json",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let loading = try #require(object["loadingSeconds"] as? Double)
    let loop = try #require(object["loopSeconds"] as? Double)
    let report = try #require(object["reportSeconds"] as? Double)
    let share = try #require(object["outsideLoopShare"] as? Double)
    #expect(loop > 0 && report > 0)
    #expect(abs(share - (loading + report) / (loading + loop + report)) < 0.002)
  }

  /// `bench perf --sweep` scales each size of the workload by 4 and prints a
  /// row per size with its exponent and the exponent's spread over three
  /// runs (which holds the exponent); the figures are for people, the layout
  /// for tests.
  @Test func theSweepPrintsAnExponentPerSize() throws {
    let result = try BenchProcess.run(["perf", "--sweep", "--devices", "2000"])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.first == "size         base      ×4        seconds   ×4 seconds  exponent  spread")
    let rows = lines.dropFirst().map { $0.split(separator: " ") }
    #expect(rows.map { String($0[0]) } == ["devices", "experiments", "versions", "days"])
    #expect(rows.map { "\($0[1]) \($0[2])" } == ["2000 8000", "5 20", "5 20", "5 20"])
    for row in rows {
      let exponent = try #require(Double(row[5])), low = try #require(Double(row[6])), high = try #require(Double(row[8]))
      #expect(row[7] == "to" && low <= exponent && exponent <= high, "\(row)")
    }
  }

  /// `bench perf --calibration` runs a scenario's replications on one thread
  /// and on two, and says whether both wrote the same results.json.
  @Test func theCalibrationMeasureComparesThreadCounts() throws {
    let result = try BenchProcess.run([
      "perf", "--calibration", committedScenario("true-effect"), "--replications", "6", "--threads", "1", "2",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    let figures = Dictionary(uniqueKeysWithValues: lines.map { (String($0[0]), String($0[1])) })
    #expect(figures["scenario"] == "\"true-effect\"" && figures["replications"] == "6")
    #expect(Double(figures["replicationsPerSecond1"] ?? "") ?? 0 > 0 && Double(figures["replicationsPerSecond2"] ?? "") ?? 0 > 0)
    #expect(figures["identical2"] == "true")
    let one = try BenchProcess.run(["perf", "--calibration", committedScenario("true-effect"), "--replications", "1"])
    #expect(one.status == 64)
    #expect(one.standardError.hasPrefix("Error: --replications must be at least 2 for a rate of replications.\n"))
  }

  /// A population beyond the accepted range once trapped in the workload's tables.
  @Test func perfRefusesCountsOutsideTheRanges() throws {
    let rounds = try BenchProcess.run(["perf", "--devices", "1000", "--rounds", "0"])
    #expect(rounds.status == 64 && rounds.standardError.hasPrefix("Error: --rounds must be 1 to 100.\n"), "\(rounds.standardError)")
    let world = try BenchProcess.run(["perf", "--world", "--sweep"])
    #expect(world.status == 64 && world.standardError.hasPrefix("Error: --world measures the workload's table"), "\(world.standardError)")
    let result = try BenchProcess.run(["perf", "--devices", "4611686018427387904"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(
      "Error: --devices must lie between 1 and 1000000000, not 4611686018427387904, e.g. --devices 10000.\n"))
    let threads = try BenchProcess.run(["perf", "--devices", "1000", "--threads", "0"])
    #expect(threads.standardError.hasPrefix("Error: --threads must lie between 1 and 1024, not 0, e.g. --threads 2.\n"))
  }

  /// The progress bar goes to a terminal only: under `script`, stderr is a
  /// terminal and the bar is drawn; through a pipe a run shorter than the log
  /// interval (10 seconds) prints nothing extra.
  @Test func theProgressBarIsDrawnOnATerminalOnly() throws {
    let out = try temporaryFolder()
    let command = "\(Bundle.main.bundleURL.appendingPathComponent("bench").path) \(committedScenario("deleted-variant")) --devices 40000 --replications 1 --out \(out.path)"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", command, "/dev/null"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(text.contains("] 100% · 40,000/40,000 devices · "))
    let piped = try BenchProcess.run([committedScenario("deleted-variant"), "--devices", "40000", "--replications", "1", "--out", out.path])
    #expect(piped.standardError == "")
  }

  /// Where standard error is not a terminal (a CI log), a run that lasts gets
  /// a line of its figures every `BENCH_PROGRESS_SECONDS` (10 by default):
  /// set to 0 here, a line at every batch, the last at 100%.
  @Test func aLogGetsALineOfProgress() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run(
      [committedScenario("deleted-variant"), "--devices", "40000", "--replications", "2", "--out", out.path],
      environment: ["BENCH_PROGRESS_SECONDS": "0"])
    #expect(result.status == 0)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count >= 2 && lines.allSatisfy { $0.hasPrefix("progress: ") }, "\(result.standardError)")
    #expect(lines.last?.hasPrefix("progress: 100% · 80,000/80,000 devices · replication 2/2 · ") == true, "\(lines.last ?? "")")
    #expect(ProgressBar.logLine(done: 2_500, total: 200_000, seconds: 1, devicesPerReplication: 1_000)
      == "progress: 1% · 2,500/200,000 devices · replication 3/200 · 2,500/s · ETA 1m19s")
    #expect(ProgressBar.logInterval(environment: [:]) == .seconds(10))
    #expect(ProgressBar.logInterval(environment: ["BENCH_PROGRESS_SECONDS": "2.5"]) == .milliseconds(2_500))
    #expect(ProgressBar.logInterval(environment: ["BENCH_PROGRESS_SECONDS": "soon"]) == .seconds(10))
  }

  /// A plain debug build (`swift run bench`) says, before a run of half a minute or more there, that
  /// the release build runs it about seven times faster; `make test`'s build, whose loop is
  /// optimised, says nothing (the note is compiled out of it).
  @Test func aSlowDebugRunSaysHowToRunFaster() {
    #expect(RunLimits.debugBuildAdvice(releaseSeconds: 4) == nil)
    #expect(RunLimits.debugBuildAdvice(releaseSeconds: 60) == "note: this bench is a debug build, which runs a plan about "
      + "7 times slower than the release build: this run takes about 7 minutes here and about 60 seconds with "
      + "`swift run -c release bench` and the same arguments (or `swift build -c release` once, then .build/release/bench).")
  }

  @Test func theProgressLineFitsTheTerminal() {
    let wide = ProgressBar.line(done: 18_000, total: 40_000, seconds: 2, width: 120)
    #expect(wide == "[#############.................] 45% · 18,000/40,000 devices · 9,000/s · ETA 3s")
    for width in [20, 30, 50, 60, 80] {
      let line = ProgressBar.line(done: 18_000, total: 40_000, seconds: 2, width: width)
      #expect(line.count <= width - 1, "\(width): \(line)")
      #expect(line.contains("45%"))
    }
    #expect(ProgressBar.line(done: 18_000, total: 40_000, seconds: 2, width: 50) == "[#########...........] 45% · 9,000/s · ETA 3s")
    let replicated = ProgressBar.line(done: 2_500, total: 200_000, seconds: 1, width: 120, devicesPerReplication: 1_000)
    #expect(replicated == "[..............................] 1% · 2,500/200,000 devices · replication 3/200 · 2,500/s · ETA 1m19s")
    #expect(ProgressBar.line(done: 0, total: 10, seconds: 0, width: 80) == "[..............................] 0% · 0/10 devices")
    #expect(ProgressBar.duration(7_500) == "2h05m")
  }
}
