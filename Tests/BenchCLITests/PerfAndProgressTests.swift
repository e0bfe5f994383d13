import Foundation
import Testing

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
      #expect((object["seconds"] as? Double).map { $0 > 0 } == true)
      #expect((object["stepsPerSecond"] as? Double).map { $0 > 0 } == true)
      #expect((object["bytesPerDevice"] as? Double).map { $0 >= 0 } == true)
    }
  }

  /// A population beyond the accepted range once trapped in the workload's tables.
  @Test func perfRefusesCountsOutsideTheRanges() throws {
    let result = try BenchProcess.run(["perf", "--devices", "4611686018427387904"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(
      "Error: --devices must lie between 1 and 1000000000, not 4611686018427387904, e.g. --devices 10000.\n"))
    let threads = try BenchProcess.run(["perf", "--devices", "1000", "--threads", "0"])
    #expect(threads.standardError.hasPrefix("Error: --threads must lie between 1 and 1024, not 0, e.g. --threads 2.\n"))
  }

  /// The progress bar goes to a terminal only: under `script`, stderr is a
  /// terminal and the bar is drawn; through a pipe nothing extra is printed.
  @Test func theProgressBarIsDrawnOnATerminalOnly() throws {
    let out = try temporaryFolder()
    let command = "\(Bundle.main.bundleURL.appendingPathComponent("bench").path) \(committedScenario("deleted-variant")) --devices 40000 --out \(out.path)"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", command, "/dev/null"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(text.contains("] 100% 40000/40000 devices"))
    let piped = try BenchProcess.run([committedScenario("deleted-variant"), "--devices", "40000", "--out", out.path])
    #expect(piped.standardError == "")
  }
}
