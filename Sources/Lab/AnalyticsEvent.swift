// SPDX-License-Identifier: Apache-2.0

/// One row for the analytics table: an assignment and why it was reported.
///
/// Every event lands in one table with the columns value, key, variant,
/// experiment, source and reason; analysts find the devices an experiment
/// affected by querying the rows whose reason is `displayed`.
public struct AnalyticsEvent: Hashable, Sendable {
  public let assignment: Assignment
  public let reason: Reason

  public init(assignment: Assignment, reason: Reason) {
    self.assignment = assignment
    self.reason = reason
  }

  /// Why an event was generated: the manager's own `activated` and
  /// `deactivated`, or what the app reported, most often `displayed`.
  public struct Reason: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) {
      self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
      self.init(rawValue: value)
    }

    /// The assignment became active on the device.
    public static let activated: Reason = "activated"
    /// The assignment stopped being active on the device.
    public static let deactivated: Reason = "deactivated"
    /// The user saw the behaviour the assignment controls: the event analyses count.
    public static let displayed: Reason = "displayed"
  }
}

extension AnalyticsEvent {
  /// The events that describe a move from one set of active assignments to
  /// another, both by key: every assignment that left or changed is
  /// `deactivated`, then every assignment that arrived or changed is
  /// `activated`, each group sorted by key.
  public static func changes(from previous: [String: Assignment], to current: [String: Assignment]) -> [AnalyticsEvent] {
    let left = previous.keys.sorted().filter { current[$0] != previous[$0] }
    let arrived = current.keys.sorted().filter { current[$0] != previous[$0] }
    return left.map { AnalyticsEvent(assignment: previous[$0]!, reason: .deactivated) }
      + arrived.map { AnalyticsEvent(assignment: current[$0]!, reason: .activated) }
  }
}

/// Receives the manager's analytics events, to forward them to whatever
/// analytics framework the app uses, and the clashes of a plan that breaks
/// Lab's shared-key rule, to log them.
public protocol AssignmentsManagerDelegate: AnyObject {
  func assignmentsManager(didGenerate event: AnalyticsEvent)
  /// Called at every merge for each variant the manager discarded because its
  /// keys met those of a variant it served.
  func assignmentsManager(didDiscard clash: KeyClash)
}

extension AssignmentsManagerDelegate {
  /// Ignores clashes: a delegate that only forwards analytics need not log them.
  public func assignmentsManager(didDiscard clash: KeyClash) {}
}
