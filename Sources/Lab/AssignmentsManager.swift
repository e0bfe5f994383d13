// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The app's entry point to Lab: the active assignments of all sources, merged
/// by key, and the analytics events that describe them.
///
/// The manager remembers the last active assignments in storage, so that it
/// reports an assignment as activated or deactivated once, when it changes,
/// even when the change happens across launches (a new version that removes an
/// experiment deactivates its assignments on the first launch of that version).
///
/// Lab forbids two active experiments that share a key. When a plan breaks
/// the rule, the manager serves what it can, as the original manager does: it
/// merges the sources in order, discards a variant whose keys meet a key
/// already taken, and reports the clash to its delegate (`KeySharing.serve`).
public struct AssignmentsManager {
  public private(set) var sources: [any AssignmentsSource]
  /// The active assignments of all sources, by key.
  public private(set) var activeAssignments: [String: Assignment]
  /// The variants the last merge discarded, each with the variant it lost its keys to.
  public private(set) var clashes: [KeyClash]
  private let storage: any LabStorage
  private weak var delegate: (any AssignmentsManagerDelegate)?

  /// Merges the sources' active assignments and reports what changed since the
  /// last launch.
  ///
  /// - Parameter sources: in merge order: where two active experiments share a
  ///   key, the one of the earlier source (or earlier in its source) is served.
  /// - Throws: `StorageError` and the storage's errors.
  public init(
    sources: [any AssignmentsSource],
    storage: any LabStorage,
    delegate: (any AssignmentsManagerDelegate)?
  ) throws {
    self.sources = sources
    self.storage = storage
    self.delegate = delegate
    activeAssignments = [:]
    clashes = []
    try merge()
  }

  /// Lets `body` change a source, e.g. apply a remote fetch to a `RemoteSource`,
  /// then merges again and reports what changed.
  ///
  /// - Parameter index: the source's position in `sources`.
  public mutating func updateSource<Source: AssignmentsSource>(
    at index: Int, as type: Source.Type, _ body: (inout Source) throws -> Void
  ) throws {
    guard var source = sources[index] as? Source else {
      preconditionFailure("source \(index) is a \(Swift.type(of: sources[index])), not a \(type)")
    }
    try body(&source)
    sources[index] = source
    try merge()
  }

  /// Asks every source that supports it to stop changing its assignments.
  public mutating func stabilizeUserExperienceAssignments() throws {
    try sources.stabilizeUserExperience()
    try merge()
  }

  /// Reports that `assignment` affected the user, e.g. with `.displayed` when
  /// the user saw the behaviour it controls.
  public func reportAssignmentAffectedUser(_ assignment: Assignment, reason: AnalyticsEvent.Reason) {
    delegate?.assignmentsManager(didGenerate: AnalyticsEvent(assignment: assignment, reason: reason))
  }

  private mutating func merge() throws {
    let active = sources.flatMap(\.activeVariants)
    let sharing = KeySharing(keys: active.map { $0.variant.assignments.keys.sorted() })
    var served = Array(repeating: true, count: active.count)
    var clashes: [KeyClash] = []
    sharing.serve(isActive: { _ in true }, sharesKey: { _ in true }, served: &served) { index in
      let pair = sharing.pair(at: index)
      clashes.append(KeyClash(keys: pair.keys, served: active[pair.first], discarded: active[pair.second]))
    }
    for clash in clashes {
      delegate?.assignmentsManager(didDiscard: clash)
    }
    let merged = Dictionary(
      uniqueKeysWithValues: active.indices.filter { served[$0] }.flatMap { active[$0].assignments }.map { ($0.key, $0) })
    let previous = try Self.recall(storage)
    for event in AnalyticsEvent.changes(from: previous, to: merged) {
      delegate?.assignmentsManager(didGenerate: event)
    }
    if merged != previous {
      try storage.setValue(Self.encode(merged), forKey: StorageKey.activeAssignments)
    }
    activeAssignments = merged
    self.clashes = clashes
  }

  private static func recall(_ storage: any LabStorage) throws -> [String: Assignment] {
    guard let stored = storage.value(forKey: StorageKey.activeAssignments) else { return [:] }
    guard let assignments = try? JSONDecoder().decode([Assignment].self, from: Data(stored.utf8)) else {
      throw StorageError(key: StorageKey.activeAssignments, value: stored, expected: "a JSON list of assignments")
    }
    return Dictionary(assignments.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
  }

  private static func encode(_ assignments: [String: Assignment]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let sorted = assignments.keys.sorted().map { assignments[$0]! }
    return String(decoding: try encoder.encode(sorted), as: UTF8.self)
  }
}
