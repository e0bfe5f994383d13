import Foundation
import Testing

/// `bench SCENARIO --world-ends` (docs/world.md, "How sure the plan is of its world"): the plan's
/// replications run again with every adoption curve at the slowest and at the fastest end of its
/// points' intervals, on the same seeds, and the plan's section says how far each decision moves.
@Suite struct WorldEndsTests {
  /// A paywall test on 2.0 (day 3), whose adoption a team measured with wide intervals; `shares`
  /// picks the curve's shares: the measured ones with their intervals, or one end's alone.
  private func plan(_ shares: Shares) -> String {
    let points = [(1, 0.3, 0.15, 0.39), (3, 0.55, 0.275, 0.715), (7, 0.75, 0.375, 0.975), (14, 0.85, 0.425, 1.0)]
    let curve = points.map { day, share, low, high in
      switch shares {
      case .measured: #"{"day": \#(day), "share": \#(share), "low": \#(low), "high": \#(high)}"#
      case .low: #"{"day": \#(day), "share": \#(low)}"#
      case .high: #"{"day": \#(day), "share": \#(high)}"#
      }
    }
    return #"""
      {"name": "ends", "seed": 40, "devices": 4000, "days": 21,
       "population": {"segments": [{"name": "everyone", "share": 1, "dailyLaunchProbability": 0.5}]},
       "versions": [
         {"version": "1.0", "releaseDay": 0},
         {"version": "2.0", "releaseDay": 3, "adoption": {"curve": [\#(curve.joined(separator: ", "))]},
          "experiments": [{"name": "Paywall", "keys": ["paywall"], "variants": [
            {"name": "Control", "weight": 1, "assignments": {"paywall": "monthly"}},
            {"name": "Annual", "weight": 1, "assignments": {"paywall": "annual"}}]}]}
       ],
       "metrics": [{"name": "subscribed", "kind": "conversion", "baseline": 0.1, "lifts": {"Paywall": {"Annual": 0.15}}}],
       "analysis": {"successMetrics": ["subscribed"]}}
      """#
  }

  private enum Shares { case measured, low, high }

  private func run(_ text: String, _ extra: [String] = []) throws -> (results: [String: Any], report: String, file: URL) {
    let folder = try temporaryFolder()
    let path = folder.appendingPathComponent("ends.json").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try BenchProcess.run([path, "--replications", "12", "--out", folder.path, "--quiet"] + extra)
    #expect(result.status == 0, "\(result.standardError)")
    let file = folder.appendingPathComponent("ends/results.json")
    return (try json(file), try String(contentsOf: folder.appendingPathComponent("ends/report.md"), encoding: .utf8), file)
  }

  private func decision(_ calibration: [String: Any]?) throws -> [String: Any] {
    let experiments = try #require(calibration?["experiments"] as? [[String: Any]])
    return try #require(experiments.first { $0["name"] as? String == "Paywall" }?["decision"] as? [String: Any])
  }

  @Test func eachEndIsThePlanRunAtThatEndsCurve() throws {
    let (results, report, file) = try run(plan(.measured), ["--world-ends"])
    let schema = try JSONSchemaCheck(schema: Data(contentsOf: repositoryRoot.appendingPathComponent("docs/results.schema.json")))
    #expect(try schema.problems(in: Data(contentsOf: file)).isEmpty)
    let calibration = results["calibration"] as? [String: Any]
    let ends = try #require(calibration?["adoptionEnds"] as? [[String: Any]])
    #expect(ends.map { $0["end"] as? String } == ["slowest", "fastest"])
    let measured = try decision(calibration)
    let slowest = try decision(ends[0]), fastest = try decision(ends[1])
    // Each end is, decision for decision, the plan run on its own with that end's shares as its curve.
    let low = try decision(run(plan(.low)).results["calibration"] as? [String: Any])
    let high = try decision(run(plan(.high)).results["calibration"] as? [String: Any])
    #expect(NSDictionary(dictionary: slowest) == NSDictionary(dictionary: low))
    #expect(NSDictionary(dictionary: fastest) == NSDictionary(dictionary: high))
    // Slower adoption brings fewer devices to 2.0 within the run, so a smaller arm.
    let arms = try [slowest, measured, fastest].map { try #require($0["smallestArm"] as? Int) }
    #expect(arms[0] < arms[1] && arms[1] < arms[2], "\(arms)")
    // The plan's line says it, with the figures of results.json.
    #expect(report.contains("With every adoption curve at an end of its 95% interval, right ship "))
    #expect(report.contains("at the slowest end (smallest arm about \(arms[0].formatted(.number.grouping(.automatic))))"))
    #expect(report.contains("at the fastest end (smallest arm about \(arms[2].formatted(.number.grouping(.automatic))))."))
    // Without the flag, the same plan says nothing of its ends.
    let (plain, plainReport, _) = try run(plan(.measured))
    #expect((plain["calibration"] as? [String: Any])?["adoptionEnds"] == nil)
    #expect(!plainReport.contains("an end of its 95% interval"))
  }

  @Test func theEndsNeedIntervalsReplicationsAndOneMachine() throws {
    let folder = try temporaryFolder()
    let cases: [([String], String)] = [
      ([committedScenario("adoption-curve"), "--world-ends"],
       "--world-ends runs the plan at the ends of its adoption curves' intervals, and adoption-curve's curves give none"),
      ([committedScenario("adoption-curve"), "--world-ends", "--shard", "0/2"],
       "--world-ends cannot go with --shard: it runs the plan's replications again at each end; run it on one machine."),
    ]
    for (arguments, message) in cases {
      let result = try BenchProcess.run(arguments + ["--out", folder.path, "--quiet"])
      #expect(result.status != 0 && result.standardError.contains(message), "\(arguments): \(result.standardError)")
    }
    let path = folder.appendingPathComponent("ends.json").path
    try plan(.measured).write(toFile: path, atomically: true, encoding: .utf8)
    let single = try BenchProcess.run([path, "--world-ends", "--replications", "1", "--out", folder.path, "--quiet"])
    #expect(
      single.status != 0
        && single.standardError.contains("--world-ends compares decision rates over replications: give --replications 2 or more."),
      "\(single.standardError)")
  }
}
