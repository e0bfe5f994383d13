// SPDX-License-Identifier: Apache-2.0

/// A key and value that controls one behaviour of the app, together with where
/// it came from.
///
/// The app reads `value`; analytics needs the rest, which is why reporting
/// that an assignment affected the user takes the whole assignment.
public struct Assignment: Hashable, Sendable, Codable {
  /// The behaviour this assignment controls, by convention `lowerCamelCase`.
  public var key: String
  public var value: AssignmentValue
  /// The name of the variant that supplied the value.
  public var variant: String
  /// The name of the experiment the variant belongs to.
  public var experiment: String
  /// The name of the source that made the variant active.
  public var source: String

  public init(key: String, value: AssignmentValue, variant: String, experiment: String, source: String) {
    self.key = key
    self.value = value
    self.variant = variant
    self.experiment = experiment
    self.source = source
  }
}
