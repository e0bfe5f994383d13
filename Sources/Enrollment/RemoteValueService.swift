// SPDX-License-Identifier: Apache-2.0

import Lab

/// The remote values service of KOMA-Inc/Experiments (seed 003): typed
/// in-app defaults for every key, values fetched from a remote config, and
/// what the app sees and tracks for each key.
///
/// For each key the value is the custom value if the app gives one, else the
/// debug value, else the fetched value, else the in-app default; a fetched
/// value that is missing or not of the default's type falls back to the
/// default by `RemoteRules.value`, the rule every remote source of the bench
/// shares, and is tracked as "key not found" or "incorrect value". A value
/// ending in `_baseline` is shown without the suffix but tracked as the
/// experiment's baseline group, so an analysis must group by what is
/// tracked, not by what is shown.
public struct RemoteValueService: Sendable {
  /// The keys with their in-app defaults; a default's type is the key's type.
  public let defaults: [String: AssignmentValue]
  public private(set) var fetched: [String: RemoteValue] = [:]
  /// Values a debug screen sets; they win over the fetched ones.
  public var debugValues: [String: AssignmentValue] = [:]
  /// Values the app decides itself; they win over everything.
  public var customValues: [String: AssignmentValue] = [:]
  private var trackedThisFetch = false

  /// The suffix that marks a value as the baseline group's.
  public static let baselineSuffix = "_baseline"

  public init(defaults: [String: AssignmentValue]) {
    self.defaults = defaults
  }

  /// Where a key's value came from.
  public enum Source: String, Hashable, Sendable {
    case custom, debug, remote
    case `default` = "default"
  }

  /// A key's value as the app uses it and the group analytics track.
  public struct Resolved: Hashable, Sendable {
    public let value: AssignmentValue
    public let source: Source
    /// The experimental group: the value shown, or "baseline" for a
    /// baseline-flagged value; `nil` when the value is not a remote one.
    public let trackedGroup: String?

    public init(value: AssignmentValue, source: Source, trackedGroup: String?) {
      self.value = value
      self.source = source
      self.trackedGroup = trackedGroup
    }
  }

  /// What the read after a fetch reports, once per fetch.
  public enum TrackingEvent: Hashable, Sendable {
    case keyNotFound(String)
    case incorrectValue(String)
    case experimentalGroup(key: String, group: String)
  }

  /// A successful fetch replaces the fetched values; the next read tracks again.
  public mutating func fetch(_ values: [String: RemoteValue]) {
    fetched = values
    trackedThisFetch = false
  }

  /// The value of `key` by precedence: custom, debug, fetched, default.
  public func value(for key: String) -> Resolved? {
    guard let fallback = defaults[key] else { return nil }
    return Self.resolve(custom: customValues[key], debug: debugValues[key], fetched: fetched[key], default: fallback)
  }

  /// A key's value by precedence, given the app's custom and debug values
  /// for it: the one place the service and a simulation order the sources.
  /// A custom or debug value is no experimental group.
  public static func resolve(
    custom: AssignmentValue?, debug: AssignmentValue?, fetched: RemoteValue?, default fallback: AssignmentValue
  ) -> Resolved {
    if let custom { return Resolved(value: custom, source: .custom, trackedGroup: nil) }
    if let debug { return Resolved(value: debug, source: .debug, trackedGroup: nil) }
    return resolve(fetched, default: fallback).resolved
  }

  /// A fetched value against the key's in-app default: the value shown (the
  /// default when the value is missing or of another type, by
  /// `RemoteRules.value`), why it fell back, and the group tracked. The one
  /// place the service and a simulation resolve a KOMA value.
  public static func resolve(
    _ delivered: RemoteValue?, default fallback: AssignmentValue
  ) -> (resolved: Resolved, fallback: RemoteRules.Fallback?) {
    let (value, reason) = RemoteRules.value(delivered: delivered.map(unflagged), default: fallback)
    guard reason == nil, let value else { return (Resolved(value: fallback, source: .default, trackedGroup: nil), reason) }
    let group: String
    switch delivered {
    case .string(let text)? where text.hasSuffix(baselineSuffix): group = "baseline"
    default: group = value.text
    }
    return (Resolved(value: value, source: .remote, trackedGroup: group), nil)
  }

  /// Reads every key after a fetch (`getValues(for:)`): the missing keys,
  /// the incorrect values and the experimental groups, once per fetch; an
  /// empty list for a second read of the same fetch.
  public mutating func getValues() -> [TrackingEvent] {
    guard !trackedThisFetch else { return [] }
    trackedThisFetch = true
    var events: [TrackingEvent] = []
    for key in defaults.keys.sorted() {
      switch Self.resolve(fetched[key], default: defaults[key]!).fallback {
      case .keyNotFound?: events.append(.keyNotFound(key))
      case .incorrectValue?: events.append(.incorrectValue(key))
      case nil:
        if let group = value(for: key)?.trackedGroup, customValues[key] == nil, debugValues[key] == nil {
          events.append(.experimentalGroup(key: key, group: group))
        }
      }
    }
    return events
  }

  /// A fetched string without its baseline flag.
  private static func unflagged(_ value: RemoteValue) -> RemoteValue {
    guard case .string(let text) = value, text.hasSuffix(baselineSuffix) else { return value }
    return .string(String(text.dropLast(baselineSuffix.count)))
  }
}
