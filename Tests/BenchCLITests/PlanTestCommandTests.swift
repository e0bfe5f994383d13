import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `bench test`: the committed plans with expectations, run as an app's CI would run them.
@Suite struct PlanTestCommandTests {
  /// upgrade.json's expectation that no device is reshuffled fails, naming the upgrade and the rule
  /// page its report explains; decision-power.json passes over its replications; a plan without
  /// expectations is skipped; the status is 1 and the JUnit file says the same.
  @Test func theCommittedPlansPassAndFailAsTheirReportsExplain() throws {
    let junit = try temporaryFolder().appendingPathComponent("results.xml")
    let result = try BenchProcess.run([
      "test", committedScenario("upgrade"), committedScenario("decision-power"), committedScenario("aa-test"),
      "--junit", junit.path, "--quiet",
    ])
    #expect(result.status == 1, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "upgrade: 50,000 devices, 1 replication")
    #expect(lines.contains(
      "  FAIL reshuffled SubscriptionScreenTheme: 25.3% (at most 1.0%): 1.0 → 2.0 moved 5,719 of 22,595 devices to another "
        + "variant (docs/rules/DeletedVariant.md)"))
    #expect(lines.contains("  PASS rule ExperimentReAdded (docs/rules/ExperimentReAdded.md): 45,091 devices (at least once)"))
    #expect(lines.contains("decision-power: 2,096 devices, 200 replications"))
    #expect(lines.filter { $0.hasPrefix("  PASS Paywall ships") }.count == 2)
    #expect(lines.contains("aa-test: no expectations, skipped"))
    #expect(lines.last == "7 expectations of 2 plans: 6 passed, 1 failed, 0 undecided; wrote \(junit.path)")
    // The report the same plan writes explains the failure: the deleted variant's devices selected again.
    let report = try String(contentsOf: repositoryRoot.appendingPathComponent("reports/upgrade/report.md"), encoding: .utf8)
    #expect(report.contains("(rule 3, DeletedVariant)"))

    final class Cases: NSObject, XMLParserDelegate {
      var cases = 0, failures = 0
      func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]) {
        if element == "testcase" { cases += 1 }
        if element == "failure" { failures += 1 }
      }
    }
    let parser = XMLParser(data: try Data(contentsOf: junit))
    let counted = Cases()
    parser.delegate = counted
    #expect(parser.parse())
    #expect(counted.cases == 7 && counted.failures == 1)
  }

  /// With 20 replications the decision's rates cannot tell (their intervals hold the bounds): undecided
  /// is said with the interval, and fails nothing. A list of plans none of which expects anything is
  /// an error, not a pass.
  @Test func tooFewReplicationsAreUndecidedAndNoExpectationsIsAnError() throws {
    let few = try BenchProcess.run(["test", committedScenario("decision-power"), "--replications", "20", "--quiet"])
    #expect(few.status == 0, "\(few.standardError)")
    #expect(few.standardOutput == """
      decision-power: 2,096 devices, 20 replications
        UNDECIDED Paywall ships a true winner: 95.0% of 20 replications (95% interval 76.4% to 99.1%) (at least 80.0%): \
      too few replications to tell: the interval holds the bound
        UNDECIDED Paywall ships a wrong variant: 0.0% of 20 replications (95% interval 0.0% to 16.1%) (at most 5.0%): \
      too few replications to tell: the interval holds the bound
        PASS sample ratio mismatch in Paywall: no mismatch, p = 0.485 (never)
        PASS key clashes: 0 devices (at most 0 devices)
      4 expectations of 1 plan: 2 passed, 0 failed, 2 undecided

      """)
    let unwritable = try BenchProcess.run([
      "test", committedScenario("decision-power"), "--replications", "2", "--junit", "/proc/none/results.xml", "--quiet",
    ])
    #expect(unwritable.status == 1)
    #expect(unwritable.standardError.hasPrefix(
      "Error: --junit: cannot write '/proc/none' ("), "\(unwritable.standardError)")
    #expect(unwritable.standardError.hasSuffix("): check that it is writable or choose another folder.\n"))
    let none = try BenchProcess.run(["test", committedScenario("aa-test")])
    #expect(none.status == 1)
    #expect(none.standardError
      == "Error: bench test: no plan has an \"expect\" list: add one (docs/scenarios.md, \"Expectations\") to test a plan.\n")
  }
}
