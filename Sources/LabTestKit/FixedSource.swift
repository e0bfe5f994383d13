// SPDX-License-Identifier: Apache-2.0

import Lab

/// A source whose active variants the test sets, in the order it gives them:
/// for driving an `AssignmentsManager` with what another model decided.
public struct FixedSource: AssignmentsSource {
  public let name: String
  public var activeVariants: [ActiveVariant]

  public init(name: String, activeVariants: [ActiveVariant]) {
    self.name = name
    self.activeVariants = activeVariants
  }

  /// One variant per active experiment.
  public var experiments: [Experiment] {
    activeVariants.compactMap { active in
      try? Experiment(name: active.experiment, keys: active.variant.assignments.keys.sorted(), variants: [active.variant])
    }
  }
}
