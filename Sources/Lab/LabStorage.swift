// SPDX-License-Identifier: Apache-2.0

/// Where Lab persists what it must remember on a device: the token, the local
/// source's decisions and the last active assignments.
///
/// Values are strings under string keys, like a defaults database, so an app
/// can back it with whatever it already has. A storage is shared by the token,
/// the sources and the manager, which is why it is a class.
public protocol LabStorage: AnyObject {
  /// The value stored under `key`, or `nil` when there is none.
  func value(forKey key: String) -> String?
  /// Stores `value` under `key`, or removes the key when `value` is `nil`.
  func setValue(_ value: String?, forKey key: String) throws
  /// Every stored key that starts with `prefix`, sorted.
  func keys(withPrefix prefix: String) -> [String]
}

/// The storage keys Lab writes, in one place so that no two parts collide.
enum StorageKey {
  static let localSourcePrefix = "Lab.LocalSource."
  static let activeAssignments = "Lab.AssignmentsManager.ActiveAssignments"
  static let remoteStabilized = "Lab.RemoteSource.Stabilized"
  static let remoteExperimentPrefix = "Lab.RemoteSource.Experiment."

  static func localSource(experiment: String) -> String {
    localSourcePrefix + experiment
  }
}

/// A storage value that Lab cannot read back.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
  public let key: String
  public let value: String
  public let expected: String

  public init(key: String, value: String, expected: String) {
    self.key = key
    self.value = value
    self.expected = expected
  }

  public var description: String {
    "stored value '\(value)' under '\(key)' is not \(expected): remove the key to start that part of Lab afresh"
  }
}
