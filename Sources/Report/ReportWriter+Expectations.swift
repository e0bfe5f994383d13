import Expectations

/// What the plan promises, checked on this run as `bench test` checks it.
extension ReportWriter {
  mutating func writeExpectations() {
    let outcomes = input.expectations
    guard !outcomes.isEmpty else { return }
    let failed = outcomes.filter { $0.status == .failed }.count
    let undecided = outcomes.filter { $0.status == .undecided }.count
    lines.append("## Expectations")
    lines.append("")
    lines.append(
      "The plan's `expect` list, checked on this run as `bench test` checks it: "
        + "\(outcomes.count - failed - undecided) kept, \(failed) broken"
        + (undecided > 0 ? ", \(undecided) undecided (too few replications to tell)" : "") + ".")
    lines.append("")
    for outcome in outcomes {
      let word = switch outcome.status {
      case .passed: "Kept"
      case .failed: "**Broken**"
      case .undecided: "Undecided"
      }
      lines.append("- \(word): \(outcome.name): \(outcome.measured) (\(outcome.bound))" + (outcome.reason.map { ": \($0)" } ?? "") + ".")
    }
    lines.append("")
  }
}
