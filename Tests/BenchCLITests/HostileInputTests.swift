import Foundation
import Testing

@testable import AnalyticsTable
@testable import BenchCLI

/// Inputs that trapped, hung or were misread (issue 41's classes): each is
/// now a clear error or the reading a user means.
@Suite struct HostileInputTests {
  private let amplitude = repositoryRoot.appendingPathComponent("docs/examples/exports/amplitude.jsonl").path
  private let fixtures = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures")
  private let impact = repositoryRoot.appendingPathComponent("docs/examples/impact")

  @Test func aMetricWithoutAnEventNameIsRefused() throws {
    let result = try BenchProcess.run(["analyze", amplitude, "--preset", "amplitude", "--metric", "revenue=:price"])
    #expect(result.status != 0)
    #expect(result.standardError.hasPrefix(
      "Error: --metric revenue=:price: the event's name is empty; give NAME=EVENT:PROPERTY, e.g. revenue=purchase:price."))
  }

  /// `Double("0x1p10")` is 1,024; no export means that by a price.
  @Test func anAmountIsDecimalTextOnly() throws {
    let events = try BenchProcess.temporaryFile(
      "id_for_vendor,experiment,variant,reason,day\nd1,Theme,A,displayed,0\nd2,Theme,B,displayed,1\n", fileExtension: "csv")
    for value in ["0x1p10", "inf", "nan", "1e", ".", "+-1"] {
      let outcomes = try BenchProcess.temporaryFile("id_for_vendor,metric,value\nd1,revenue,\(value)\n", fileExtension: "csv")
      let result = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--out", try temporaryFolder().path])
      #expect(result.status == 1)
      #expect(result.standardError == "Error: \(outcomes) line 2: value '\(value)' is not a number; fix the row or pass --skip-malformed to leave such rows out\n")
    }
    for (value, expected) in [("1e3", 1_000.0), ("-.5", -0.5), ("+2.", 2.0), ("7E-1", 0.7)] {
      #expect(try EventsAnalysis.amount(value, of: "value") == expected, "\(value)")
    }
  }

  /// "é" as one scalar and as "e" and a combining accent: equal to Swift, two names in the file's bytes.
  @Test func twoSpellingsOfOneNameAreAClearError() throws {
    let events = try BenchProcess.temporaryFile(
      "id_for_vendor,experiment,variant,reason,day\nd1,Theme,caf\u{E9},displayed,0\nd2,Theme,cafe\u{301},displayed,1\n",
      fileExtension: "csv")
    let outcomes = try BenchProcess.temporaryFile("id_for_vendor,metric,value\nd1,converted,1\n", fileExtension: "csv")
    let result = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--out", try temporaryFolder().path])
    #expect(result.status == 1)
    #expect(result.standardError == "Error: the table's variants of Theme 'caf\u{E9}' (U+0063 U+0061 U+0066 U+00E9) and "
      + "'cafe\u{301}' (U+0063 U+0061 U+0066 U+0065 U+0301) are the same name written in two Unicode forms: "
      + "write it the same way in every row (NFC, as most tools send it)\n")
  }

  /// An ids file saved on Windows, with a byte order mark: the same ids as the plain file.
  @Test func idsWithCRLFAndAByteOrderMarkAreTheSameIds() throws {
    let plain = try String(contentsOf: impact.appendingPathComponent("ids.txt"), encoding: .utf8)
    let windows = "\u{FEFF}" + plain.replacingOccurrences(of: "\n", with: "\r\n")
    func moves(_ ids: String) throws -> BenchProcess.Result {
      try BenchProcess.run([
        "impact", "--framework", "launchdarkly", "--before", impact.appendingPathComponent("launchdarkly-before.json").path,
        "--after", impact.appendingPathComponent("launchdarkly-after.json").path, "--ids", ids,
      ])
    }
    let expected = try moves(impact.appendingPathComponent("ids.txt").path)
    #expect(expected.status == 0 && !expected.standardOutput.isEmpty)
    let fromWindows = try moves(try BenchProcess.temporaryFile(windows, fileExtension: "txt"))
    #expect(fromWindows.standardOutput == expected.standardOutput)
    #expect(IDLines.split("\u{FEFF}a\r\nb\r\n\r\nc") == ["a", "b", "", "c"])
    let bucket = try BenchProcess.run(
      ["bucket", "--framework", "launchdarkly", "--config", fixtures.appendingPathComponent("launchdarkly-flags.json").path],
      input: "\u{FEFF}user-1\r\nuser-2\r\n")
    let direct = try BenchProcess.run([
      "bucket", "--framework", "launchdarkly", "--config", fixtures.appendingPathComponent("launchdarkly-flags.json").path, "user-1",
      "user-2",
    ])
    #expect(bucket.standardOutput == direct.standardOutput && !direct.standardOutput.isEmpty)
  }

  /// A FIFO nobody writes to and a device that never ends: both end in an error.
  @Test func anInputThatNeverEndsIsAnError() throws {
    let fifo = try temporaryFolder().appendingPathComponent("config.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let waited = #expect(throws: BenchError.self) { try InputFile.read(fifo, option: "--config", patience: .seconds(1)) }
    #expect(waited?.description == "--config: \(fifo): nothing arrived in 1 s: give a file, or start the program that writes to it first")
    let endless = #expect(throws: BenchError.self) { try InputFile.read("/dev/zero", option: "--ids", limit: 1 << 20) }
    #expect(endless?.description == "--ids: /dev/zero holds more than 1 MB, more than any such file needs: check that it is the right file")
    let folder = #expect(throws: BenchError.self) { try InputFile.read(NSTemporaryDirectory(), option: "--ids") }
    #expect(folder?.description == "--ids: \(NSTemporaryDirectory()) is a folder: name the file")
  }

  /// Another vendor's file read as LaunchDarkly's flag data, where every member is optional, is refused by its shape.
  @Test func anotherVendorsFileIsRefused() throws {
    let result = try BenchProcess.run([
      "bucket", "--framework", "launchdarkly", "--config", fixtures.appendingPathComponent("statsig-specs.json").path, "user-1",
    ])
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix(
      "Error: --config: not a valid LaunchDarkly flag data: $: has neither 'flags' nor 'segments': it is not LaunchDarkly flag data (top-level members: "))
  }

  /// Every analysis goes by a name of its own in the report and results.json.
  @Test func aDerivedMetricNamedLikeAnotherIsRefused() throws {
    let result = try BenchProcess.run([
      "analyze", amplitude, "--preset", "amplitude", "--metric", "revenue=purchase:price", "--metric", "revenue.p50=purchase:price",
      "--quantiles", "revenue=0.5", "--out", try temporaryFolder().path,
    ])
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix(
      "Error: --quantiles revenue: 'revenue.p50' is the name of another metric or analysis too: give it a name of its own"))
  }

  /// `bench perf --calibration` estimates its run as `bench run` does, and keeps its limits.
  @Test func aCalibrationBeyondTheLimitsIsRefused() throws {
    let result = try BenchProcess.run([
      "perf", "--calibration", committedScenario("upgrade"), "--replications", "100000", "--threads", "1",
    ])
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix("Error: this run would need about "))
    #expect(result.standardError.contains("lower --devices or --replications, or add --allow-large-run."))
  }
}
