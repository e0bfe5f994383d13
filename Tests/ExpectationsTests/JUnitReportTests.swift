import Foundation
import ScenarioFormat
import Testing

@testable import Expectations

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The JUnit XML a CI system reads: one suite per plan, a failure per failed
/// expectation, and any name (names come from plans) escaped into valid XML.
@Suite struct JUnitReportTests {
  private func outcome(_ name: String, _ status: ExpectationOutcome.Status) -> ExpectationOutcome {
    ExpectationOutcome(
      expectation: PlanExpectation(measure: .mixed(experiment: name), bound: .atMost(0.05), path: "expect[0]"),
      status: status, name: "mixed \(name)", measured: "3.3%", bound: "at most 5.0%",
      reason: status == .passed ? nil : "why")
  }

  @Test func suitesCasesAndFailuresAreWritten() {
    let xml = JUnitReport.xml([("plan", [outcome("A", .passed), outcome("B", .failed), outcome("C", .undecided)])])
    #expect(xml == """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="bench test" tests="3" failures="1">
        <testsuite name="plan" tests="3" failures="1" skipped="1">
          <testcase classname="plan" name="mixed A (at most 5.0%)"/>
          <testcase classname="plan" name="mixed B (at most 5.0%)">
            <failure message="FAIL mixed B: 3.3% (at most 5.0%): why"/>
          </testcase>
          <testcase classname="plan" name="mixed C (at most 5.0%)">
            <skipped message="UNDECIDED mixed C: 3.3% (at most 5.0%): why"/>
          </testcase>
        </testsuite>
      </testsuites>

      """)
  }

  /// A name with every character XML reserves, a line break and a control character parses back as written
  /// (the control character, which XML cannot hold, as U+FFFD).
  @Test func anyNameMakesValidXML() throws {
    let name = "a\"b'<c>&d\ne\u{1}f"
    let xml = JUnitReport.xml([(name, [outcome(name, .failed)])])
    final class Names: NSObject, XMLParserDelegate {
      var suites: [String] = []
      func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]) {
        if element == "testsuite", let name = attributes["name"] { suites.append(name) }
      }
    }
    let parser = XMLParser(data: Data(xml.utf8))
    let names = Names()
    parser.delegate = names
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(names.suites == ["a\"b'<c>&d\ne\u{FFFD}f"])
  }
}
