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
        #"  <testsuite name="\#(escaped(plan))" tests="\#(outcomes.count)" failures="\#(failed)" skipped="\#(skipped)">"#)
      for outcome in outcomes {
        let name = escaped("\(outcome.name) (\(outcome.bound))")
        let opening = #"    <testcase classname="\#(escaped(plan))" name="\#(name)""#
        switch outcome.status {
        case .passed:
          lines.append(opening + "/>")
        case .failed, .undecided:
          let element = outcome.status == .failed ? "failure" : "skipped"
          lines.append(opening + ">")
          lines.append(#"      <\#(element) message="\#(escaped(outcome.line))"/>"#)
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text as an XML attribute's value: the five characters XML reserves
  /// escaped, and control characters other than tab and line ends (which XML
  /// 1.0 cannot hold at all) replaced, so that any name makes a valid file.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t": result += "&#9;"
      case "\n": result += "&#10;"
      case "\r": result += "&#13;"
      default:
        if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
