import Foundation
import Testing

/// `bench compare`: one plan under several frameworks, byte for byte the same
/// whatever the thread count, with the committed example kept fresh.
@Suite struct CompareCommandTests {
  private func files(in folder: URL) throws -> [String] {
    let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
    return enumerator.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") && $0.contains(".") }.sorted()
  }

  /// reports/compare-frameworks/ is what `bench compare scenarios/compare-frameworks.json` writes today.
  @Test func theCommittedComparisonIsFresh() throws {
    let out = try temporaryFolder()
    let result = try BenchProcess.run(["compare", committedScenario("compare-frameworks"), "--out", out.path, "--quiet"])
    #expect(result.status == 0, "\(result.standardError)")
    let committed = repositoryRoot.appendingPathComponent("reports/compare-frameworks")
    let fresh = out.appendingPathComponent("compare-frameworks")
    #expect(try files(in: fresh) == files(in: committed))
    for file in try files(in: fresh) {
      let expected = try String(contentsOf: committed.appendingPathComponent(file), encoding: .utf8)
      let actual = try String(contentsOf: fresh.appendingPathComponent(file), encoding: .utf8)
      #expect(actual == expected, "reports/compare-frameworks/\(file) is stale: run make compare and commit it")
    }
  }

  @Test func everyFileIsTheSameOnOneAndTwoThreads() throws {
    let one = try temporaryFolder(), two = try temporaryFolder()
    for (folder, threads) in [(one, "1"), (two, "2")] {
      let result = try BenchProcess.run([
        "compare", committedScenario("compare-frameworks"), "--devices", "3000", "--threads", threads, "--out", folder.path,
        "--quiet",
      ])
      #expect(result.status == 0)
    }
    let names = try files(in: one)
    #expect(names == (try files(in: two)))
    #expect(names.contains("compare-frameworks/comparison.md") && names.contains("compare-frameworks/optimizely/results.json"))
    for name in names {
      #expect(try Data(contentsOf: one.appendingPathComponent(name)) == Data(contentsOf: two.appendingPathComponent(name)), "\(name)")
    }
  }

  @Test func badInputIsOneClearLine() throws {
    let unknown = try BenchProcess.run(["compare", committedScenario("compare-frameworks"), "--frameworks", "lab-local,launchdarkly"])
    #expect(unknown.status == 64)
    #expect(unknown.standardError.hasPrefix(
      "Error: --frameworks: 'launchdarkly' is not a framework; use lab-local, lab-remote, optimizely, growthbook.\n"))
    let noPlan = try BenchProcess.run(["compare", committedScenario("upgrade"), "--out", try temporaryFolder().path])
    #expect(noPlan.status == 1)
    #expect(noPlan.standardError == 
      "Error: service: is required: bench compare runs the experiments of the service section under each framework\n")
  }
}
