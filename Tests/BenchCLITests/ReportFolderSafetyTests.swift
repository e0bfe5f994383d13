import Foundation
import Testing

/// A report folder is always one whole run: the bench is killed (SIGKILL, in
/// a subprocess) before each file-system step of writing it, and the folder
/// must then hold the previous run or the new one, never a mix; the next run
/// removes what the killed one left.
@Suite struct ReportFolderSafetyTests {
  /// Every file under `folder` by relative path, with its bytes.
  private func snapshot(_ folder: URL) throws -> [String: Data] {
    guard FileManager.default.fileExists(atPath: folder.path) else { return [:] }
    var files: [String: Data] = [:]
    let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
    for case let url as URL in enumerator where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
      files[String(url.path.dropFirst(folder.path.count + 1))] = try Data(contentsOf: url)
    }
    return files
  }

  private func run(seed: Int, out: URL, killAt step: Int? = nil, scenario: String = "upgrade") throws -> BenchProcess.Result {
    var environment = ProcessInfo.processInfo.environment
    environment["BENCH_KILL_AT_STEP"] = step.map(String.init)
    return try BenchProcess.run(
      // One replication: what is tested is the folder's files, not the calibration over replications.
      [committedScenario(scenario), "--devices", "300", "--seed", String(seed), "--replications", "1", "--out", out.path, "--quiet"],
      environment: environment)
  }

  private func leftovers(in out: URL, name: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".\(name).staging-") }
  }

  @Test func aKillAtAnyStepLeavesOneWholeRun() throws {
    let reference = try temporaryFolder()
    #expect(try run(seed: 1, out: reference).status == 0)
    let old = try snapshot(reference.appendingPathComponent("upgrade"))
    #expect(try run(seed: 2, out: reference).status == 0)
    let new = try snapshot(reference.appendingPathComponent("upgrade"))
    #expect(old != new && old.keys.contains("report.md") && new.keys.contains("results.json"))

    var killed = 0
    for step in 1...100 {
      let out = try temporaryFolder()
      // Half the kills land on a first run, half over an old report.
      let hasOld = step % 2 == 0
      if hasOld { #expect(try run(seed: 1, out: out).status == 0) }
      let result = try run(seed: 2, out: out, killAt: step)
      let folder = try snapshot(out.appendingPathComponent("upgrade"))
      if result.status == 0 {
        #expect(folder == new)
        // Past the last step on both paths: every step has been killed once.
        if !hasOld { break }
        continue
      }
      killed += 1
      #expect(result.status == SIGKILL, "step \(step): \(result.standardError)")
      #expect(folder == new || folder == (hasOld ? old : [:]), "step \(step) left a mix: \(folder.keys.sorted())")
      // The next run cleans up and lands whole.
      #expect(try run(seed: 2, out: out).status == 0)
      #expect(try snapshot(out.appendingPathComponent("upgrade")) == new)
      #expect(try leftovers(in: out, name: "upgrade").isEmpty)
    }
    // Leftover removal, the staging folder, nine files, the swap and the cleanup.
    #expect(killed >= 12)
  }

  /// Two runs into one folder at once: each lands whole, one after the other.
  @Test func twoRunsIntoOneFolderDoNotMix() async throws {
    let reference = try temporaryFolder()
    #expect(try run(seed: 1, out: reference).status == 0)
    let first = try snapshot(reference.appendingPathComponent("upgrade"))
    #expect(try run(seed: 2, out: reference).status == 0)
    let second = try snapshot(reference.appendingPathComponent("upgrade"))
    let out = try temporaryFolder()
    for _ in 0..<3 {
      async let one = Task.detached { try run(seed: 1, out: out) }.value
      async let two = Task.detached { try run(seed: 2, out: out) }.value
      let statuses = try await [one.status, two.status]
      #expect(statuses == [0, 0])
      let folder = try snapshot(out.appendingPathComponent("upgrade"))
      #expect(folder == first || folder == second)
      #expect(try leftovers(in: out, name: "upgrade").isEmpty)
      #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["upgrade"])
    }
  }

  /// A write that fails halfway (here a file-size limit, as a full disk
  /// would) leaves the previous report and no staging folder.
  @Test func aFailedWriteLeavesThePreviousReport() throws {
    let out = try temporaryFolder()
    #expect(try run(seed: 1, out: out).status == 0)
    let old = try snapshot(out.appendingPathComponent("upgrade"))
    let command = [
      BenchProcess.executable.path, committedScenario("upgrade"), "--devices", "300", "--seed", "2", "--replications", "1", "--out", out.path,
      "--quiet",
    ]
    let result = try BenchProcess.run(
      executable: URL(fileURLWithPath: "/bin/sh"),
      ["-c", "trap '' XFSZ; ulimit -f 4; exec \"$@\"", "sh"] + command)
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix("Error: \(out.path)/upgrade: cannot be written ("), "\(result.standardError)")
    #expect(try snapshot(out.appendingPathComponent("upgrade")) == old)
    #expect(try leftovers(in: out, name: "upgrade").isEmpty)
  }

  @Test func aLockThatCannotBeTakenIsAClearError() throws {
    let out = try temporaryFolder()
    #expect(try run(seed: 1, out: out).status == 0)
    let old = try snapshot(out.appendingPathComponent("upgrade"))
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(".upgrade.lock").path))
    try FileManager.default.createDirectory(at: out.appendingPathComponent(".upgrade.lock"), withIntermediateDirectories: false)
    let result = try run(seed: 2, out: out)
    #expect(result.status == 1)
    #expect(result.standardError == "Error: \(out.path)/upgrade: cannot be locked (Is a directory); check that the folder is writable or choose another with --out\n")
    #expect(try snapshot(out.appendingPathComponent("upgrade")) == old)
  }
}
