import Foundation
import Testing

/// A vendor file that means something other than its author thinks is said once, with the path,
/// and changes no decision.
@Suite struct VendorFileWarningTests {
  /// LaunchDarkly's weights are in 100,000ths: 70/30 written as percentages sends almost everyone
  /// to the last variation (the SDK's fallback past the weights' sum), and 80,000 in all sends the last 20% there.
  @Test func aLaunchDarklyRolloutInPercentIsSaid() throws {
    func flags(_ weights: [Int]) -> String {
      let variations = weights.enumerated().map { #"{"variation": \#($0), "weight": \#($1)}"# }.joined(separator: ", ")
      return #"{"flags": {"paywall": {"key": "paywall", "on": true, "salt": "s", "variations": ["control", "annual-first"], "#
        + #""fallthrough": {"rollout": {"variations": [\#(variations)]}}}}}"#
    }
    let percent = try BenchProcess.temporaryFile(flags([70, 30]))
    let result = try BenchProcess.run(["bucket", "--framework", "launchdarkly", "--config", percent, "user-1", "user-2"])
    #expect(result.status == 0)
    #expect(result.standardError == "Warning: \(percent): flag 'paywall', its fallthrough: the rollout's weights add up to 100, "
      + "where LaunchDarkly's whole is 100000 (70% is 70000): the SDK gives every user past 0.1% the last variation\n")
    let short = try BenchProcess.temporaryFile(flags([40_000, 40_000]))
    let shortResult = try BenchProcess.run(["bucket", "--framework", "launchdarkly", "--config", short, "user-1"])
    #expect(shortResult.standardError.hasSuffix("add up to 80000, where LaunchDarkly's whole is 100000 (70% is 70000): "
      + "the SDK gives every user past 80% the last variation\n"))
    let whole = try BenchProcess.temporaryFile(flags([70_000, 30_000]))
    let wholeResult = try BenchProcess.run(["bucket", "--framework", "launchdarkly", "--config", whole, "user-1", "user-2"])
    #expect(wholeResult.standardError.isEmpty)
    // The warning changes no decision: past the weights' sum (0.001), the SDK's fallback serves the last variation.
    let ids = (1...200).map { "user-\($0)" }
    let decided = try BenchProcess.run(["bucket", "--framework", "launchdarkly", "--config", percent, "--json"] + ids)
    let rows = try decided.standardOutput.split(separator: "\n").map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(rows.count == ids.count)
    for row in rows {
      let bucket = try #require(row["bucket"] as? Double)
      #expect(row["variation"] as? String == (bucket < 0.0007 ? "0" : "1"), "\(row)")
    }
  }
}
