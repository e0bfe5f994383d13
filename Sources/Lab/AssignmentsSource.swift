// SPDX-License-Identifier: Apache-2.0

/// Something that decides which experiments are active on a device and with
/// which variant: hard-coded experiments, a remote service, a debug screen.
public protocol AssignmentsSource {
  /// The name analytics events carry in their `source` field.
  var name: String { get }
  /// Every experiment the source could make active, for the debug screen.
  var experiments: [Experiment] { get }
  /// The experiments active on this device, each with its variant.
  var activeVariants: [ActiveVariant] { get }
}

/// A source that can freeze its assignments on request.
///
/// Once a source is stabilized its assignments no longer change and new
/// experiments are not exposed, so that a user does not see two behaviours of
/// the app. A source that does not conform ignores the hint.
public protocol StabilizingSource: AssignmentsSource {
  mutating func stabilizeUserExperience() throws
}

/// An experiment that is active on a device, with the variant it selected.
public struct ActiveVariant: Hashable, Sendable {
  public let experiment: String
  public let variant: Variant
  public let source: String

  public init(experiment: String, variant: Variant, source: String) {
    self.experiment = experiment
    self.variant = variant
    self.source = source
  }

  /// The variant's assignments, sorted by key.
  public var assignments: [Assignment] {
    variant.assignments.keys.sorted().map { key in
      Assignment(
        key: key, value: variant.assignments[key]!, variant: variant.name,
        experiment: experiment, source: source)
    }
  }
}

extension [any AssignmentsSource] {
  /// Passes the stabilization hint to the sources that support it; the others
  /// ignore it.
  mutating func stabilizeUserExperience() throws {
    for index in indices {
      guard var source = self[index] as? any StabilizingSource else { continue }
      try source.stabilizeUserExperience()
      self[index] = source
    }
  }
}
