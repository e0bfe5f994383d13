import BenchCLI
import Foundation
import Testing

/// `bench bucket`: the debug screen of Optimizely and GrowthBook, on the
/// vendors' own files, agreeing with their SDKs' decisions.
@Suite struct BucketCommandTests {
  /// The datafile and payload the conformance fixtures were made with, as files.
  private func vendorFile(_ fixture: String, member: String) throws -> String {
    let url = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures/\(fixture).json")
    let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let data = try JSONSerialization.data(withJSONObject: try #require(root[member]), options: [.sortedKeys])
    return try BenchProcess.temporaryFile(String(decoding: data, as: UTF8.self))
  }

  /// Ids as arguments go around swift-argument-parser, which removes each positional argument from
  /// its list one at a time (20,000 took it 1 minute 44 seconds): the same 20,000 ids as arguments and
  /// on standard input give the same lines, and an argument after `--` is an id even with a dash.
  @Test func manyIdsAsArgumentsAreTheIdsOnStandardInput() throws {
    let datafile = try vendorFile("optimizely", member: "datafile")
    let ids = (1...20_000).map { "user-\($0)" }
    let options = ["bucket", "--framework", "optimizely", "--config", datafile]
    let arguments = try BenchProcess.run(options + ids)
    let standardInput = try BenchProcess.run(options, input: ids.joined(separator: "\n") + "\n")
    #expect(arguments.status == 0 && standardInput.status == 0)
    #expect(arguments.standardOutput == standardInput.standardOutput)
    #expect(arguments.standardOutput.split(separator: "\n").count == 20_000 * 8)
    let dashed = try BenchProcess.run(options + ["--json", "--", "-weird", "user-1"])
    let lines = dashed.standardOutput.split(separator: "\n")
    #expect(lines.count == 16 && lines.first?.hasPrefix(#"{"id": "-weird", "experiment": "#) == true, "\(dashed.standardOutput)")
    #expect(
      BenchCLI.Bench.Bucket.separatingIDs(["--framework", "eppo", "a", "--json", "--config", "f.json", "b", "--", "--c"])
        == (["--framework", "eppo", "--json", "--config", "f.json"], ["a", "b", "--c"]))
  }

  @Test func itPrintsEachDecisionAndWhy() throws {
    let datafile = try vendorFile("optimizely", member: "datafile")
    let result = try BenchProcess.run([
      "bucket", "--framework", "optimizely", "--config", datafile, "--attributes", #"{"platform": "iOS", "app_version": "2.1.0"}"#,
      "qa-user",
    ])
    #expect(result.status == 0)
    #expect(result.standardOutput == """
      qa-user paywall_copy: treatment (whitelisted)
      qa-user onboarding: no variation (bucket 8176, bucket outside the traffic allocation)
      qa-user paused_test: no variation (experiment not running)
      qa-user single: no variation (audience does not match)
      qa-user checkout_test: on (bucket 4213, bucketed)
      qa-user exclusive_a: no variation (bucket 5472, bucketed into another experiment of its group)
      qa-user exclusive_b: b0 (bucket 200, bucketed)
      qa-user new_checkout: on (feature flag, decided by checkout_test)

      """)
  }

  /// Per id, a line per experiment rule and one per feature, as growthbook
  /// 4.0.0's `eval_feature` decided for the fixture's users (each with its
  /// own attributes: a device id, a company, a platform): the feature's
  /// value, source and deciding rule; the experiment's variation (its meta
  /// key) and its value only on the rule that decided, null with the reason
  /// on the others.
  @Test func featureAndExperimentLinesAgreeWithTheSDK() throws {
    let url = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures/growthbook.json")
    let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    let payloadObject = try #require(root["rolloutPayload"] as? [String: Any])
    let payload = try BenchProcess.temporaryFile(String(decoding: try JSONSerialization.data(withJSONObject: payloadObject), as: UTF8.self))
    let features = try #require(payloadObject["features"] as? [String: [String: Any]])
    let users = try #require(root["rollouts"] as? [[String: Any]]).filter { !($0["id"] as! String).isEmpty }.prefix(60)
    var decidedByExperiment = 0
    for user in users {
      var attributes = try #require(user["attributes"] as? [String: Any])
      attributes["id"] = nil
      let id = user["id"] as! String
      let result = try BenchProcess.run([
        "bucket", "--framework", "growthbook", "--config", payload, "--json", "--attributes",
        String(decoding: try JSONSerialization.data(withJSONObject: attributes), as: UTF8.self), "--", id,
      ])
      #expect(result.status == 0, "\(result.standardError)")
      let lines = try result.standardOutput.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
      let expected = try #require(user["results"] as? [String: [String: Any]])
      for key in features.keys.sorted() {
        let want = try #require(expected[key])
        let feature = try #require(lines.first { $0["feature"] as? String == key })
        #expect(Set(feature.keys) == ["id", "feature", "value", "source", "rule"])
        #expect(feature["id"] as? String == id)
        #expect(feature["source"] as? String == want["source"] as? String, "\(id) \(key)")
        #expect(feature["rule"] as? String == want["ruleId"] as? String, "\(id) \(key)")
        #expect(try sameJSON(feature["value"], want["value"]), "\(id) \(key)")
        for rule in (features[key]?["rules"] as? [[String: Any]] ?? []) where rule["variations"] != nil {
          let line = try #require(lines.first { $0["experiment"] as? String == rule["key"] as? String })
          let decided = want["ruleId"] as? String == rule["id"] as? String
          // The rule that decided gives the feature its variation's value, which the line names beside the variation.
          #expect(Set(line.keys) == Set(["id", "experiment", "variation", "bucket", "reason"] + (decided ? ["value"] : [])))
          if decided, let value = want["value"] as? String { #expect(line["value"] as? String == value, "\(id) \(key)") }
          let meta = rule["meta"] as? [[String: Any]]
          let variation = (want["variationId"] as? Int).flatMap { meta?[$0]["key"] as? String }
          #expect(line["variation"] as? String == (decided ? variation : nil), "\(id) \(key)")
          #expect((line["bucket"] as? Double) == (decided ? want["bucket"] as? Double : nil), "\(id) \(key)")
          if decided { decidedByExperiment += 1 }
        }
      }
    }
    #expect(decidedByExperiment > 30)
    // Ids from standard input, blank lines skipped: each gets its lines.
    let input = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", payload], input: "u1\n\nu2\n")
    #expect(input.standardOutput.split(separator: "\n").count == 2 * (features.count + 2))
  }

  /// Two JSON values read by JSONSerialization are the same value (objects whatever their members' order).
  private func sameJSON(_ first: Any?, _ second: Any?) throws -> Bool {
    func text(_ value: Any?) throws -> String {
      String(decoding: try JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: .sortedKeys), as: UTF8.self)
    }
    return try text(first) == text(second)
  }

  @Test func badInputGetsOneLineNamingTheOption() throws {
    let datafile = try vendorFile("optimizely", member: "datafile")
    let payload = try vendorFile("growthbook", member: "payload")
    let wrongFormat = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", payload, "x"])
    #expect(wrongFormat.status == 1)
    #expect(wrongFormat.standardError == "Error: --config: not a valid Optimizely datafile: the top level: 'version' is required\n")
    let missing = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", "/nonexistent.json", "x"])
    #expect(missing.standardError == "Error: --config: cannot read '/nonexistent.json': check the path.\n")
    let attributes = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", datafile, "--attributes", "[1]", "x"])
    #expect(attributes.status == 64)
    #expect(attributes.standardError.hasPrefix(
      "Error: --attributes must be a JSON object, e.g. '{\"platform\": \"iOS\", \"app_version\": \"2.1.0\"}'.\n"))
    // With the command's own usage, not the top-level one.
    #expect(attributes.standardError.contains("Usage: bench bucket --framework <framework>"))
    let noIDs = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", datafile], input: "")
    #expect(noIDs.standardError.hasPrefix("Error: Give the user ids as arguments, or one per line on standard input.\n"))
  }
}

/// Versions beyond Int in a GrowthBook payload once trapped: an unknown hash
/// version decides nothing, as the SDK's, and bucket versions compare clamped.
@Suite struct GrowthBookHugeNumberTests {
  @Test func hugeVersionsAreNoTrap() throws {
    let payload = """
      {"features": {"f": {"defaultValue": 0, "rules": [
        {"key": "e", "variations": [0, 1], "hashVersion": 1e300, "bucketVersion": 1e300, "minBucketVersion": -1e300},
        {"key": "g", "variations": [0, 1], "hashVersion": 2.5}]}}}
      """
    let result = try BenchProcess.run([
      "bucket", "--framework", "growthbook", "--config", try BenchProcess.temporaryFile(payload), "--json", "u1",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(
      #"{"id": "u1", "experiment": "e", "variation": null, "bucket": null, "reason": "unknown hash version"}"#))
    #expect(result.standardOutput.contains(#""experiment": "g", "variation": null"#))
  }
}

/// Vendor files and --attributes are read as strictly as a scenario: a
/// number beyond a double names its path, a syntax error its line and column.
@Suite struct VendorFileSyntaxTests {
  @Test func syntaxErrorsNameWhereTheyAre() throws {
    let attributes = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", "/dev/null", "--attributes", #"{"a": 1e999}"#, "u"])
    #expect(attributes.status == 64)
    #expect(attributes.standardError.hasPrefix(
      #"Error: --attributes: a: 1e999 is out of range: a number must be below 1.8e308 in magnitude; give a JSON object, e.g. '{"platform": "iOS"}'."#))
    let huge = try BenchProcess.temporaryFile(#"{"features": {"f": {"defaultValue": 1e999}}}"#)
    let hugeResult = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", huge, "u"])
    #expect(hugeResult.standardError
      == "Error: --config: \(huge): features.f.defaultValue: 1e999 is out of range: a number must be below 1.8e308 in magnitude\n")
    let truncated = try BenchProcess.temporaryFile("{\"features\": {\n \"f\": ")
    let truncatedResult = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", truncated, "u"])
    #expect(truncatedResult.standardError
      == "Error: --config: \(truncated): $: is not valid JSON at line 2, column 7: the document ends where a value was expected\n")
  }

  /// A rule list of the wrong type is refused by its path; what the SDK
  /// tolerates (a coverage of 50, weights for other variations) is said once
  /// as a warning before the decisions.
  @Test func aGrowthBookPayloadsMistakesAreNamed() throws {
    let oops = try BenchProcess.temporaryFile(#"{"features": {"paywall": {"defaultValue": "a", "rules": "oops"}}}"#)
    let refused = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", oops, "u1"])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("features.paywall.rules: must be an array of rules"))
    #expect(refused.standardOutput.isEmpty)
    let tolerated = try BenchProcess.temporaryFile(#"""
      {"features": {"paywall": {"defaultValue": "a", "rules": [
        {"key": "pw", "variations": ["a", "b"], "coverage": 50, "weights": [0.2, 0.3, 0.5]}]}}}
      """#)
    let warned = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", tolerated, "u1", "u2"])
    #expect(warned.status == 0)
    #expect(warned.standardError == """
      Warning: \(tolerated): features.paywall.rules[0].coverage: 50.0 lies outside 0 to 1; the SDK takes 1.0
      Warning: \(tolerated): features.paywall.rules[0].weights: 3 weights for 2 variations; the SDK splits equally

      """)
    // Per id, the experiment's line and the feature's.
    #expect(warned.standardOutput.split(separator: "\n").count == 4)
    // References the SDK resolves silently: saved groups it cannot read or that are missing, a
    // prerequisite on a feature the payload lacks.
    let references = try BenchProcess.temporaryFile(#"""
      {"savedGroups": {"ok": ["a"], "future": {"type": "new"}, "broken": 3},
       "features": {"f": {"defaultValue": 0, "rules": [
         {"condition": {"$or": [{"id": {"$inGroup": "ok"}}, {"id": {"$notInGroup": "nope"}}]},
          "parentConditions": [{"id": "ghost", "condition": {"value": true}}], "force": 1}]}}}
      """#)
    let referenced = try BenchProcess.run(["bucket", "--framework", "growthbook", "--config", references, "a"])
    #expect(referenced.status == 0)
    #expect(referenced.standardError == """
      Warning: \(references): savedGroups.broken: neither a list of values nor a group object; conditions on it fail
      Warning: \(references): savedGroups.future: a group of a type the SDK does not know; conditions on it are unknown and fail
      Warning: \(references): features.f.rules[0].condition: 'nope' names no saved group; the SDK takes it as empty
      Warning: \(references): features.f.rules[0].parentConditions[0].id: 'ghost' is no feature of the payload; the SDK evaluates it as unknown, its value null

      """)
    #expect(referenced.standardOutput == "a f = 0 (defaultValue)\n")
  }

  /// A traffic allocation naming no variation and an audience id no audience
  /// has are said once, by path; the decisions stay the SDK's.
  @Test func anOptimizelyDatafilesDanglingReferencesAreNamed() throws {
    let url = repositoryRoot.appendingPathComponent("Tests/BucketingTests/Fixtures/optimizely.json")
    let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var datafile = try #require(root["datafile"] as? [String: Any])
    var experiments = try #require(datafile["experiments"] as? [[String: Any]])
    var allocation = try #require(experiments[0]["trafficAllocation"] as? [[String: Any]])
    allocation[0]["entityId"] = "9999"
    experiments[0]["trafficAllocation"] = allocation
    experiments[1]["audienceConditions"] = ["or", "777"]
    datafile["experiments"] = experiments
    let file = try BenchProcess.temporaryFile(
      String(decoding: try JSONSerialization.data(withJSONObject: datafile, options: [.sortedKeys]), as: UTF8.self))
    let result = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", file, "user-1"])
    #expect(result.status == 0)
    #expect(result.standardError == """
      Warning: \(file): experiments[0].trafficAllocation[0].entityId: '9999' is no variation of paywall_copy; users bucketed below 5000 get no variation
      Warning: \(file): experiments[1]: audience '777' is in no audience of the datafile; the SDK reads it as no match

      """)
    // The unchanged fixture says nothing.
    let original = try BenchProcess.temporaryFile(
      String(decoding: try JSONSerialization.data(withJSONObject: try #require(root["datafile"])), as: UTF8.self))
    let clean = try BenchProcess.run(["bucket", "--framework", "optimizely", "--config", original, "u"])
    #expect(clean.standardError.isEmpty)
  }
}
