// SPDX-License-Identifier: Apache-2.0

/// A named set of assignments, one of the alternatives an experiment compares.
public struct Variant: Hashable, Sendable {
  /// The name analysts see, by convention `UpperCamelCase`.
  public var name: String
  /// The relative chance of being selected: weights 1, 2 and 2 select the
  /// variants 20%, 40% and 40% of the time.
  public var weight: Int
  /// The value of every key of the experiment, by key.
  public var assignments: [String: AssignmentValue]

  public init(name: String, weight: Int = 1, assignments: [String: AssignmentValue]) {
    self.name = name
    self.weight = weight
    self.assignments = assignments
  }
}
