import Lab
import Testing

/// `LocalDecision.persists` against `LocalDecision.decide`: a decision made
/// among one list of variants persists under another exactly when deciding
/// again from its record draws nothing and names the same variant.
@Suite struct LocalDecisionTests {
  /// What deciding again from the record of `decision` under `current` gives,
  /// by name, or `nil` when it would draw.
  private func redecided(_ decision: LocalDecision, previous: [String], current: [String]) throws -> String?? {
    let recall: LocalRecall
    switch decision {
    case .inactive: recall = .inactive
    case .active(let index): recall = current.firstIndex(of: previous[index]).map(LocalRecall.variant) ?? .deletedVariant
    }
    var drew = false
    let again = LocalDecision.decide(
      recall: recall, range: try TokenRange(lower: 0, upper: 1), token: try ActiveExperimentsToken(0.5)
    ) {
      drew = true
      return 0
    }
    if drew { return nil }
    return .some(again.variant.map { current[$0] })
  }

  @Test func aDecisionPersistsWhereItsRecordDecidesAlone() throws {
    let previous = ["Blue", "Yellow", "Dracula"]
    let cases: [(current: [String], persists: Bool)] = [
      (["Blue", "Yellow", "Dracula"], true),
      (["Dracula", "Blue", "Yellow"], true),  // reordered: found by name
      (["Blue", "Yellow", "Dracula", "Midnight"], true),  // a variant added
      (["Blue", "Yellow"], false),  // Dracula deleted
      (["Blue", "Yellow", "Vampire"], false),  // renamed
    ]
    for (current, persists) in cases {
      #expect(LocalDecision.persists(previous: previous, current: current) == persists, "\(current)")
      let decisions = [LocalDecision.inactive] + previous.indices.map { LocalDecision.active(variant: $0) }
      let unchanged = try decisions.allSatisfy { decision in
        try redecided(decision, previous: previous, current: current) == .some(decision.variant.map { previous[$0] })
      }
      #expect(unchanged == persists, "\(current)")
    }
  }
}
