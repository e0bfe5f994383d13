// SPDX-License-Identifier: Apache-2.0

import Lab

/// An analytics delegate that records every event and clash in memory, in order.
public final class RecordingDelegate: AssignmentsManagerDelegate {
  public private(set) var events: [AnalyticsEvent] = []
  public private(set) var clashes: [KeyClash] = []

  public init() {}

  public func assignmentsManager(didGenerate event: AnalyticsEvent) {
    events.append(event)
  }

  public func assignmentsManager(didDiscard clash: KeyClash) {
    clashes.append(clash)
  }

  /// The events with `reason`, as "experiment/variant/key" strings, for compact assertions.
  public func summary(of reason: AnalyticsEvent.Reason) -> [String] {
    events.filter { $0.reason == reason }.map {
      "\($0.assignment.experiment)/\($0.assignment.variant)/\($0.assignment.key)"
    }
  }

  public func removeAll() {
    events = []
    clashes = []
  }
}
