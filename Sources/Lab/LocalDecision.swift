// SPDX-License-Identifier: Apache-2.0

/// What the local source remembers of one experiment on a device, read against
/// the experiment as the running version defines it.
///
/// Only the activity status and the variant's name persist, so a remembered
/// variant is either found by name among the current variants or gone.
public enum LocalRecall: Hashable, Sendable {
  /// No record: the experiment is new to the device, or an earlier version
  /// removed it and its record was deleted.
  case nothing
  /// The experiment was not active when last decided.
  case inactive
  /// The experiment was active with the current variant at this index.
  case variant(Int)
  /// The experiment was active with a variant the current version no longer has.
  case deletedVariant
}

/// The local source's decision for one experiment on one device: the rules for
/// changing local experiments, in one place, for every caller.
///
/// `LocalSource` calls it with names read from storage; a simulation can call
/// it with indexes it keeps for millions of devices. Either way the same rules
/// apply (docs/rules/), because the doc makes "the experiment activity status
/// and active variant names" persistent once decided:
/// - a remembered variant that still exists is kept, whatever its values now
///   are (AssignmentChange) and whatever the range now is (TokenRangeChange);
/// - a remembered "inactive" is kept, whatever the range now is
///   (TokenRangeChange): only devices that decide afresh follow a new range;
/// - an experiment without a record is decided afresh (ExperimentReAdded);
/// - a remembered variant that was deleted is decided afresh, as for a new
///   experiment (DeletedVariant).
public enum LocalDecision: Hashable, Sendable {
  case inactive
  case active(variant: Int)

  /// Decides one experiment at launch.
  ///
  /// - Parameters:
  ///   - recall: what the device remembers of the experiment.
  ///   - range: the experiment's active token range in the running version.
  ///   - token: the device's active-experiments token.
  ///   - selectVariant: draws a variant by the running version's weights
  ///     (`WeightedSelection`); called only when a variant is selected afresh.
  @inlinable
  public static func decide(
    recall: LocalRecall,
    range: TokenRange,
    token: ActiveExperimentsToken,
    selectVariant: () -> Int
  ) -> LocalDecision {
    switch recall {
    case .variant(let index):
      return .active(variant: index)
    case .inactive:
      return .inactive
    case .nothing, .deletedVariant:
      guard range.contains(token) else { return .inactive }
      return .active(variant: selectVariant())
    }
  }

  /// Whether every decision a device made of an experiment whose variants
  /// were `previous` comes back unchanged when a version defines the
  /// experiment with the variants `current`, so that a launch may keep the
  /// decision rather than decide again: a remembered "inactive" always does
  /// (TokenRangeChange), and a remembered variant does while a variant of its
  /// name exists (AssignmentChange; DeletedVariant when it does not). Weights
  /// and token ranges play no part: only devices that decide afresh follow them.
  public static func persists(previous: [String], current: [String]) -> Bool {
    previous.allSatisfy(current.contains)
  }

  /// The index of the active variant, or `nil` when the experiment is inactive.
  @inlinable
  public var variant: Int? {
    if case .active(let index) = self { return index }
    return nil
  }
}
