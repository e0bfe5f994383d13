import Foundation
import Testing

@Suite struct AnalyzeCommandTests {
  /// Simulate, export, analyse: the report from the events table carries the
  /// simulated run's numbers.
  @Test func aSimulatedRunRoundTripsThroughItsEventsTable() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path
    let simulate = try BenchProcess.run([committedScenario("upgrade"), "--devices", "2500", "--out", out.appendingPathComponent("run").path, "--events", events, "--quiet"])
    #expect(simulate.status == 0)
    let analyse = try BenchProcess.run([
      "analyze", events, "--outcomes", out.appendingPathComponent("events-outcomes.csv").path, "--scenario", committedScenario("upgrade"),
      "--out", out.appendingPathComponent("analysis").path,
    ])
    #expect(analyse.status == 0, "\(analyse.standardError)")
    #expect(analyse.standardOutput.hasPrefix("Analysed 2500 devices in 2 experiments.\n"))
    let simulated = try json(out.appendingPathComponent("run/upgrade/results.json"))
    let analysed = try json(out.appendingPathComponent("analysis/upgrade/results.json"))
    let simulatedExperiments = try #require(simulated["experiments"] as? [[String: Any]])
    let analysedExperiments = try #require(analysed["experiments"] as? [[String: Any]])
    #expect(simulatedExperiments.count == analysedExperiments.count)
    for (run, read) in zip(simulatedExperiments, analysedExperiments) {
      let runVariants = try #require(run["variants"] as? [[String: Any]]), readVariants = try #require(read["variants"] as? [[String: Any]])
      for (a, b) in zip(runVariants, readVariants) {
        for key in ["name", "exposed", "contaminated", "firstExposed"] {
          #expect("\(a[key]!)" == "\(b[key]!)", "\(key)")
        }
        let metricsA = try #require(a["metrics"] as? [String: [String: Any]]), metricsB = try #require(b["metrics"] as? [String: [String: Any]])
        for (metric, values) in metricsA {
          for key in ["n", "conversions", "mean", "variance"] {
            #expect("\(values[key] ?? "none")" == "\(metricsB[metric]?[key] ?? "none")", "\(metric).\(key)")
          }
        }
      }
      let runAnalysis = try #require(run["analysis"] as? [[String: Any]]), readAnalysis = try #require(read["analysis"] as? [[String: Any]])
      for (a, b) in zip(runAnalysis, readAnalysis) {
        let comparisonsA = try #require(a["comparisons"] as? [[String: Any]]), comparisonsB = try #require(b["comparisons"] as? [[String: Any]])
        for (x, y) in zip(comparisonsA, comparisonsB) {
          for key in ["variant", "test", "statistic", "pValue", "lift", "ciLow", "ciHigh", "probabilityToBeatBaseline"] {
            #expect("\(x[key]!)" == "\(y[key]!)", "\(key)")
          }
        }
      }
    }
    let report = try String(contentsOf: out.appendingPathComponent("analysis/upgrade/report.md"), encoding: .utf8)
    #expect(report.contains("Analysed events.csv: 2,500 devices over 90 days."))
  }

  @Test func aMissingColumnIsOneClearLine() throws {
    let events = try BenchProcess.temporaryFile("user,experiment,variant,reason,day\nd1,Theme,A,displayed,0\n")
    let outcomes = try BenchProcess.temporaryFile("id_for_vendor,metric,value\nd1,converted,1\n")
    let result = try BenchProcess.run(["analyze", events, "--outcomes", outcomes])
    #expect(result.status == 1)
    #expect(result.standardError == "Error: \(events): has no column 'id_for_vendor' (found: user, experiment, variant, reason, day); name the column that holds it with --column id_for_vendor=NAME\n")
    let mapped = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--column", "id_for_vendor=user", "--out", try temporaryFolder().path])
    #expect(mapped.status == 1)
    #expect(mapped.standardError.hasPrefix("Error: \(outcomes): has no column 'user'"))
  }

  @Test func malformedRowsFailOrAreSkippedWithACount() throws {
    let events = try BenchProcess.temporaryFile("""
      id_for_vendor,experiment,variant,reason,day
      d1,Theme,A,displayed,0
      d2,Theme,B,displayed,soon
      d3,Theme,B,displayed,1

      """)
    let outcomes = try BenchProcess.temporaryFile("id_for_vendor,metric,value\nd1,converted,1\nd3,converted,0\n")
    let failing = try BenchProcess.run(["analyze", events, "--outcomes", outcomes])
    #expect(failing.status == 1)
    #expect(failing.standardError == "Error: \(events) line 3: day 'soon' is not a whole number of days from 0 to 3659 (ten years); fix the row or pass --skip-malformed to leave such rows out\n")
    let out = try temporaryFolder()
    let skipping = try BenchProcess.run(["analyze", events, "--outcomes", outcomes, "--skip-malformed", "--out", out.path, "--name", "tiny"])
    #expect(skipping.status == 0)
    #expect(skipping.standardError == "Skipped 1 malformed row; the first, \(events) line 3: day 'soon' is not a whole number of days from 0 to 3659 (ten years).\n")
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("tiny/report.md").path))
  }

  @Test func badOptionsNameTheFix() throws {
    let result = try BenchProcess.run(["analyze", "e.csv", "--outcomes", "o.csv", "--kind", "revenue=money"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("Error: --kind takes METRIC=conversion or METRIC=continuous, not 'revenue=money'.\n"))
  }
}

private func json(_ url: URL) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
}
