import Foundation
import Testing

/// Every input the fuzzer once crashed on, and every seed, replayed through
/// `bench-fuzz` built without libFuzzer: each must run the whole pipeline to
/// its end without a trap (see Tests/FuzzCorpus/README.md).
@Suite struct FuzzRegressionTests {
  private static let corpus = repositoryRoot.appendingPathComponent("Tests/FuzzCorpus")

  private func files(in folder: URL) throws -> [String] {
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0).path }
  }

  @Test(arguments: ["scenario", "table", "optimizely", "growthbook", "part", "attributes", "export", "platforms"])
  func savedInputsRunToTheEnd(target: String) throws {
    let seeds = target == "scenario"
      ? try files(in: repositoryRoot.appendingPathComponent("scenarios")).filter { $0.hasSuffix(".json") }
      : try files(in: Self.corpus.appendingPathComponent(target))
    let inputs = seeds + (try files(in: Self.corpus.appendingPathComponent("regressions/\(target)")))
    #expect(seeds.count >= 2, "the seeds of \(target)")
    let result = try BenchProcess.run(
      executable: Bundle.main.bundleURL.appendingPathComponent("bench-fuzz"), [target] + inputs)
    #expect(result.status == 0, "\(result.standardError)")
  }

  @Test func anUnknownTargetIsAUsageError() throws {
    let result = try BenchProcess.run(executable: Bundle.main.bundleURL.appendingPathComponent("bench-fuzz"), ["json"])
    #expect(result.status == 64)
    #expect(
      result.standardError == "usage: bench-fuzz scenario, table, optimizely, growthbook, part, attributes, export or platforms [FILE...]\n")
  }
}
