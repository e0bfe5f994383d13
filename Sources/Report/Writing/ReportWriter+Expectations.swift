import Expectations

/// What the plan promises, checked on this run as `bench test` checks it.
extension ReportWriter {
  mutating func writeExpectations() {
    let outcomes = input.expectations
    guard !outcomes.isEmpty else { return }
    let failed = outcomes.filter { $0.status == .failed }.count
    let undecided = outcomes.filter { $0.status == .undecided }.count
    heading(2, "Expectations")
    let counts = "\(outcomes.count - failed - undecided) kept, \(failed) broken"
      + (undecided > 0 ? ", \(undecided) undecided (too few replications to tell)" : "")
    paragraph("The plan's \(code: "expect") list, checked on this run as \(code: "bench test") checks it: \(counts).")
    list(outcomes.map { outcome in
      let word: ReportText = switch outcome.status {
      case .passed: "Kept"
      case .failed: "\(strong: "Broken")"
      case .undecided: "Undecided"
      }
      return "\(word): \(outcome.name): \(outcome.measured) (\(outcome.bound))\(outcome.reason.map { ": \($0)" } ?? "")."
    })
  }
}
