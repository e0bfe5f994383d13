import Foundation
import Platforms
import Testing

/// docs/platforms.md shows a minimal file per platform: each is run, as
/// written in the page, through `bench bucket`, and must be valid without a
/// warning and split its experiment between both variations.
@Suite struct MinimalVendorFileTests {
  /// The page's JSON blocks under "A minimal file per platform", by the `###` heading above each.
  static func files() throws -> [String: String] {
    let page = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/platforms.md"), encoding: .utf8)
    let start = try #require(page.range(of: "\n## A minimal file per platform\n"))
    let section = page[start.upperBound...]
    let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
    var files: [String: String] = [:], heading: String?, block: [Substring]?
    for line in section[..<end].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("### ") {
        heading = String(line.dropFirst(4))
      } else if line == "```json" {
        block = []
      } else if line == "```", let lines = block, let name = heading {
        files[name] = lines.joined(separator: "\n")
        block = nil
      } else if block != nil {
        block?.append(line)
      }
    }
    return files
  }

  @Test func everyPlatformHasAFileThatSplitsItsExperimentWithoutAWarning() throws {
    let files = try Self.files()
    #expect(Set(files.keys) == Set(PlatformRegistry.standard.names))
    let ids = (1...400).map { "user-\($0)" }
    for (framework, text) in files.sorted(by: { $0.key < $1.key }) {
      let result = try BenchProcess.run(
        ["bucket", "--framework", framework, "--config", try BenchProcess.temporaryFile(text), "--json"] + ids)
      #expect(result.status == 0 && result.standardError.isEmpty, "\(framework): \(result.standardError)")
      var counts: [String: Int] = [:]
      for line in result.standardOutput.split(separator: "\n") {
        let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        guard row["experiment"] as? String == "paywall" else { continue }
        let variation = (row["value"] ?? row["variation"]) as? String ?? "none"
        counts[variation, default: 0] += 1
      }
      #expect(Set(counts.keys) == ["control", "annual-first"], "\(framework): \(counts)")
      for (variation, count) in counts {
        #expect((160...240).contains(count), "\(framework) \(variation): \(count) of 400")
      }
    }
  }
}
