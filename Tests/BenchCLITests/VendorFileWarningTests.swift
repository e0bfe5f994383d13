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

  /// Eppo's shard ranges count shards of totalShards (10,000): 0 to 50 written for 50% takes 0.5% of subjects,
  /// and a range past totalShards is never reached.
  @Test func eppoShardRangesInPercentAreSaid() throws {
    func configuration(_ split: Int, _ end: Int) -> String {
      func variation(_ key: String, _ start: Int, _ end: Int) -> String {
        #"{"variationKey": "\#(key)", "shards": [{"salt": "s", "ranges": [{"start": \#(start), "end": \#(end)}]}]}"#
      }
      return #"{"format": "SERVER", "flags": {"paywall": {"key": "paywall", "enabled": true, "variationType": "STRING", "#
        + #""totalShards": 10000, "variations": {"control": {"key": "control", "value": "control"}, "#
        + #""annual": {"key": "annual", "value": "annual"}}, "allocations": [{"key": "main", "rules": [], "splits": "#
        + "[\(variation("control", 0, split)), \(variation("annual", split, end))]}]}}}"
    }
    let percent = try BenchProcess.temporaryFile(configuration(50, 100))
    let result = try BenchProcess.run(["bucket", "--framework", "eppo", "--config", percent, "user-1"])
    #expect(result.status == 0)
    #expect(result.standardError == "Warning: \(percent): flag 'paywall': every shard range ends by 100 of totalShards 10000, so its "
      + "splits take at most 1% of subjects; ranges count shards, not percent (50% is 0 to 5000)\n")
    let past = try BenchProcess.temporaryFile(configuration(5000, 12_000))
    let pastResult = try BenchProcess.run(["bucket", "--framework", "eppo", "--config", past, "user-1"])
    #expect(pastResult.standardError == "Warning: \(past): flag 'paywall': a shard range ends at 12000, past totalShards 10000: "
      + "shards are 0 to 9999, so the SDK never reaches the rest\n")
    let whole = try BenchProcess.temporaryFile(configuration(5000, 10_000))
    #expect(try BenchProcess.run(["bucket", "--framework", "eppo", "--config", whole, "user-1"]).standardError.isEmpty)
  }

  /// Statsig's passPercentage is a percentage: 0.5 written for half passes 0.5% of users; above 100, everyone.
  @Test func aStatsigPassPercentageAsAShareIsSaid() throws {
    func specs(_ pass: Double) -> String {
      #"{"time": 1, "feature_gates": [{"name": "paywall", "type": "feature_gate", "entity": "feature_gate", "salt": "s", "#
        + #""enabled": true, "defaultValue": false, "rules": [{"name": "r", "id": "r", "salt": "r", "passPercentage": \#(pass), "#
        + #""conditions": [{"type": "public"}], "returnValue": true}]}], "dynamic_configs": [], "layer_configs": []}"#
    }
    let share = try BenchProcess.temporaryFile(specs(0.5))
    let result = try BenchProcess.run(["bucket", "--framework", "statsig", "--config", share, "user-1"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError == "Warning: \(share): 'paywall' has a rule with passPercentage 0.5: a percentage, so 0.5% of "
      + "users pass; half is 50\n")
    let over = try BenchProcess.temporaryFile(specs(150))
    #expect(try BenchProcess.run(["bucket", "--framework", "statsig", "--config", over, "user-1"]).standardError
      == "Warning: \(over): 'paywall' has a rule with passPercentage 150: a percentage above 100, so everyone passes\n")
    let half = try BenchProcess.temporaryFile(specs(50))
    #expect(try BenchProcess.run(["bucket", "--framework", "statsig", "--config", half, "user-1"]).standardError.isEmpty)
  }

  /// Optimizely's endOfRange counts 10,000ths: [50, 100] written for 50/50 serves 1% of users.
  @Test func anOptimizelyTrafficAllocationInPercentIsSaid() throws {
    let url = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures/optimizely.json")
    let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var datafile = try #require(root["datafile"] as? [String: Any])
    var experiments = try #require(datafile["experiments"] as? [[String: Any]])
    let key = try #require(experiments[0]["key"] as? String)
    var allocation = try #require(experiments[0]["trafficAllocation"] as? [[String: Any]])
    for index in allocation.indices { allocation[index]["endOfRange"] = 50 * (index + 1) }
    experiments[0]["trafficAllocation"] = allocation
    datafile["experiments"] = experiments
    let file = try BenchProcess.temporaryFile(
      String(decoding: try JSONSerialization.data(withJSONObject: datafile, options: [.sortedKeys]), as: UTF8.self))
    let result = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", file, "user-1"])
    #expect(result.status == 0)
    let end = 50 * allocation.count
    #expect(result.standardError == "Warning: \(file): experiments[0].trafficAllocation: every range ends by \(end) of 10000, so "
      + "\(key) serves at most \(String(format: "%g", Double(end) / 100))% of users; endOfRange counts 10,000ths (50% is 5000)\n")
  }
}
