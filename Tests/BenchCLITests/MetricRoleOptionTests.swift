import Foundation
import Testing

/// `--success-metric` and `--guardrail` set the experiment decision's roles
/// from the command line, on a simulated plan and on an analysed table, with
/// an error that names the flag and the fix.
@Suite struct MetricRoleOptionTests {
  private func decision(_ results: URL, experiment: Int = 0) throws -> [String: Any] {
    let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: results)) as? [String: Any])
    let experiments = try #require(object["experiments"] as? [[String: Any]])
    return try #require(experiments[experiment]["decision"] as? [String: Any])
  }

  @Test func aGuardrailFromTheCommandLineLeavesTheOtherMetricsAsSuccessMetrics() throws {
    let out = try temporaryFolder()
    let run = try BenchProcess.run([
      committedScenario("upgrade"), "--devices", "500", "--replications", "1", "--guardrail", "revenue=0.02", "--out",
      out.path, "--quiet",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let decided = try decision(out.appendingPathComponent("upgrade/results.json"))
    #expect(decided["successMetrics"] as? [String] == ["subscribed"])
    #expect(decided["guardrails"] as? [String: Double] == ["revenue": 0.02])
  }

  @Test func anAnalysedTableTakesTheRolesToo() throws {
    let out = try temporaryFolder()
    let events = out.appendingPathComponent("events.csv").path
    let simulate = try BenchProcess.run([
      committedScenario("true-effect"), "--devices", "400", "--replications", "1", "--out", out.appendingPathComponent("run").path,
      "--events", events, "--quiet",
    ])
    #expect(simulate.status == 0, "\(simulate.standardError)")
    let analyse = try BenchProcess.run([
      "analyze", events, "--outcomes", out.appendingPathComponent("events-outcomes.csv").path, "--success-metric", "revenue",
      "--out", out.path, "--quiet",
    ])
    #expect(analyse.status == 0, "\(analyse.standardError)")
    let decided = try decision(out.appendingPathComponent("events-analyze/results.json"))
    #expect(decided["successMetrics"] as? [String] == ["revenue"])
    // Real data is no draw of a plan: the first screen says "the decision", and nothing of replications.
    let report = try String(contentsOf: out.appendingPathComponent("events-analyze/report.md"), encoding: .utf8)
    #expect(report.contains("## What to do\n\n### The decision\n\n- **Paywall**: "))
    #expect(!report.contains("replications"))
  }

  @Test func wrongRolesAreRefusedByName() throws {
    let out = try temporaryFolder()
    let common = [committedScenario("upgrade"), "--devices", "200", "--replications", "1", "--out", out.path, "--quiet"]
    let unknown = try BenchProcess.run(common + ["--guardrail", "refunds=0.02"])
    #expect(unknown.status != 0)
    #expect(unknown.standardError.hasPrefix(
      "Error: --guardrail refunds: no metric has that name; the metrics are subscribed, revenue."))
    let margin = try BenchProcess.run(common + ["--guardrail", "revenue=2"])
    #expect(margin.status != 0)
    #expect(margin.standardError.hasPrefix(
      "Error: --guardrail takes METRIC=MARGIN with a margin between 0 and 1, e.g. --guardrail revenue=0.02 for a 2% loss; got 'revenue=2'."))
    // One number grammar: a hexadecimal float is no margin, as no other option takes one (issue 62).
    let hexadecimal = try BenchProcess.run(common + ["--guardrail", "revenue=0x1p-3"])
    #expect(hexadecimal.status != 0)
    #expect(hexadecimal.standardError.contains("--guardrail takes METRIC=MARGIN with a margin between 0 and 1"))
    #expect(hexadecimal.standardError.contains("got 'revenue=0x1p-3'"))
    let both = try BenchProcess.run(common + ["--guardrail", "revenue=0.02", "--success-metric", "revenue"])
    #expect(both.status != 0)
    #expect(both.standardError.hasPrefix(
      "Error: --success-metric revenue: it is a guardrail too; a metric either must improve or must not get worse."))
  }
}
