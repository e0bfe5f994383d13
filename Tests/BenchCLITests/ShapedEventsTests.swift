import AnalyticsTable
import Foundation
import Testing

/// `bench SCENARIO --events FILE --events-shape TOOL` writes the simulated
/// events as the tool exports them; read back through the tool's preset, they
/// give the run's exposures and conversions, device for device.
@Suite struct ShapedEventsTests {
  @Test(arguments: ExportPreset.allCases.filter { $0 != .lab })
  func aSimulatedExportReadsBackAsTheRun(_ preset: ExportPreset) throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent(preset == .statsig ? "events.csv" : "events.jsonl").path
    let simulate = try BenchProcess.run([
      committedScenario("store-rollouts"), "--devices", "1000", "--replications", "1", "--out", out.appendingPathComponent("run").path,
      "--events", events, "--events-shape", preset.rawValue, "--quiet",
    ])
    #expect(simulate.status == 0, "\(simulate.standardError)")
    let analyse = try BenchProcess.run([
      "analyze", events, "--preset", preset.rawValue, "--metric", "subscribed=subscribed", "--name", "shaped",
      "--out", out.appendingPathComponent("analysis").path, "--quiet",
    ])
    #expect(analyse.status == 0, "\(analyse.standardError)")
    let simulated = try #require(try json(out.appendingPathComponent("run/store-rollouts/results.json"))["experiments"] as? [[String: Any]])
    let analysed = try #require(try json(out.appendingPathComponent("analysis/shaped/results.json"))["experiments"] as? [[String: Any]])
    #expect(simulated.count == 1 && analysed.count == 1)
    // Firebase keeps an experiment as a user property named by its prefix.
    #expect(analysed.first?["name"] as? String == (preset == .firebase ? "firebase_exp_Paywall" : "Paywall"))
    let runVariants = try #require(simulated.first?["variants"] as? [[String: Any]])
    let readVariants = try #require(analysed.first?["variants"] as? [[String: Any]])
    let byName = Dictionary(uniqueKeysWithValues: readVariants.map { ("\($0["name"]!)", $0) })
    for variant in runVariants {
      let read = try #require(byName["\(variant["name"]!)"])
      #expect("\(variant["exposed"]!)" == "\(read["exposed"]!)")
      let run = try #require((variant["metrics"] as? [String: [String: Any]])?["subscribed"])
      let back = try #require((read["metrics"] as? [String: [String: Any]])?["subscribed"])
      #expect("\(run["n"]!)" == "\(back["n"]!)" && "\(run["conversions"]!)" == "\(back["conversions"]!)")
    }
  }

  /// A session event at each launch, with the version and the platform, in
  /// time order per device: the run's launches, one row each.
  @Test func everyLaunchIsASessionEvent() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("amplitude.jsonl").path
    let simulate = try BenchProcess.run([
      committedScenario("sessions-and-activity"), "--devices", "500", "--replications", "1", "--out", out.path,
      "--events", events, "--events-shape", "amplitude", "--quiet",
    ])
    #expect(simulate.status == 0, "\(simulate.standardError)")
    let rows = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let sessions = rows.filter { $0["event_type"] as? String == "session_start" }
    let launches = try #require(try json(out.appendingPathComponent("sessions-and-activity/results.json"))["launches"] as? Int)
    #expect(sessions.count == launches)
    #expect(sessions.allSatisfy { ["1.0", "2.0"].contains($0["version_name"] as? String ?? "") })
    // Day 0 is the Monday 2026-01-05.
    #expect(sessions.map { $0["event_time"] as? String ?? "" }.min()?.hasPrefix("2026-01-05T08:00:00") == true)
  }

  @Test func badShapesAreRefused() throws {
    let cases: [([String], String)] = [
      (["--events-shape", "amplitude"], "--events-shape and --events-start go with --events: add --events events.jsonl."),
      (["--events", "e.jsonl", "--events-shape", "heap"],
       "--events-shape takes amplitude, mixpanel, segment, statsig, firebase, not 'heap'; without it --events writes the Lab table."),
      (["--events", "e.jsonl", "--events-shape", "amplitude", "--outcomes", "o.csv"],
       "--outcomes goes with the Lab table: a tool's shape writes outcomes as events in --events."),
      (["--events", "e.jsonl", "--events-shape", "amplitude", "--events-start", "2026-13-01"],
       "--events-start takes a date as YYYY-MM-DD, not '2026-13-01'."),
    ]
    for (arguments, message) in cases {
      let result = try BenchProcess.run([committedScenario("upgrade")] + arguments)
      #expect(result.status != 0)
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
  }
}
