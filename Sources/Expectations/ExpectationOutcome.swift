import ScenarioFormat

/// One expectation of a plan checked against a run: what was measured, the
/// bound, and why it failed or cannot yet tell.
public struct ExpectationOutcome: Hashable, Sendable {
  public enum Status: String, Hashable, Sendable {
    case passed
    case failed
    /// A rate over replications whose interval holds the bound: more
    /// replications would tell.
    case undecided
  }

  public var expectation: PlanExpectation
  public var status: Status
  /// What is measured, in words: "reshuffled SubscriptionScreenTheme into 3.0".
  public var name: String
  /// The measured value as shown: "48.3%", "0 devices".
  public var measured: String
  /// The bound in words: "at most 1.0%".
  public var bound: String
  /// For a failure, what caused it (the upgrade or change and the rule page);
  /// for an undecided rate, its interval.
  public var reason: String?

  public init(expectation: PlanExpectation, status: Status, name: String, measured: String, bound: String, reason: String?) {
    self.expectation = expectation
    self.status = status
    self.name = name
    self.measured = measured
    self.bound = bound
    self.reason = reason
  }

  /// One line: `FAIL reshuffled SubscriptionScreenTheme: 48.3% (at most 1.0%): 2.0 → 3.0 …`.
  public var line: String {
    let word = switch status {
    case .passed: "PASS"
    case .failed: "FAIL"
    case .undecided: "UNDECIDED"
    }
    return "\(word) \(name): \(measured) (\(bound))" + (reason.map { ": \($0)" } ?? "")
  }
}
