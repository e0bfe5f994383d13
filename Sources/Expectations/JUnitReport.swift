import Results

/// Checked expectations as JUnit XML, the format CI systems (GitHub Actions'
/// test reporters, GitLab, Jenkins) read: one test suite per plan, one test
/// case per expectation, a failure element for each that failed and a
/// skipped one for each that could not tell.
public enum JUnitReport {
  /// - Parameter plans: each plan's name with its checked expectations, in the order run.
  public static func xml(_ plans: [(plan: String, outcomes: [ExpectationOutcome])]) -> String {
    let tests = plans.map(\.outcomes.count).reduce(0, +)
    let failures = plans.flatMap(\.outcomes).filter { $0.status == .failed }.count
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="bench test" tests="\#(tests)" failures="\#(failures)">"#,
    ]
    for (plan, outcomes) in plans {
      let failed = outcomes.filter { $0.status == .failed }.count
      let skipped = outcomes.filter { $0.status == .undecided }.count
      lines.append(
        #"  <testsuite name="\#(XMLText.escapeAttribute(plan))" tests="\#(outcomes.count)" failures="\#(failed)" skipped="\#(skipped)">"#)
      for outcome in outcomes {
        let name = XMLText.escapeAttribute("\(outcome.name) (\(outcome.bound))")
        let opening = #"    <testcase classname="\#(XMLText.escapeAttribute(plan))" name="\#(name)""#
        switch outcome.status {
        case .passed:
          lines.append(opening + "/>")
        case .failed, .undecided:
          let element = outcome.status == .failed ? "failure" : "skipped"
          lines.append(opening + ">")
          lines.append(#"      <\#(element) message="\#(XMLText.escapeAttribute(outcome.line))"/>"#)
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }
}
