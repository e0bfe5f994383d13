// SPDX-License-Identifier: Apache-2.0

/// A number in [0, 1] drawn once per device and kept for good.
///
/// Experiments declare the token range in which they are active; because the
/// token never changes, two experiments with disjoint ranges are never active
/// on the same device and may share keys.
public struct ActiveExperimentsToken: Hashable, Sendable, Comparable {
  public let value: Double

  /// The storage key under which `load(from:generatingWith:)` keeps the token.
  public static let storageKey = "Lab.ActiveExperimentsToken"

  /// A token with a known value, e.g. one read back from an app's own store.
  ///
  /// - Throws: `TokenRangeError.outsideUnitInterval` unless `0 <= value <= 1`.
  public init(_ value: Double) throws(TokenRangeError) {
    guard value.isFinite, value >= 0, value <= 1 else {
      throw .outsideUnitInterval(lower: value, upper: value)
    }
    self.value = value
  }

  /// The token for 64 random bits: the top 53 bits scaled into [0, 1), so every
  /// double the mapping yields is equally likely and the mapping never changes
  /// with the standard library.
  @inlinable
  public init(bits: UInt64) {
    value = Double(bits >> 11) * 0x1p-53
  }

  /// The device's token: the stored one, or a new one drawn from `random` and
  /// stored before it is returned.
  ///
  /// - Throws: `StorageError` when the stored value is not a number in [0, 1],
  ///   rather than silently moving the device to other experiments; errors of
  ///   the storage when it cannot write.
  public static func load(
    from storage: any LabStorage,
    generatingWith random: inout some RandomNumberGenerator
  ) throws -> ActiveExperimentsToken {
    if let stored = storage.value(forKey: storageKey) {
      guard let value = Double(stored), let token = try? ActiveExperimentsToken(value) else {
        throw StorageError(key: storageKey, value: stored, expected: "a number in [0, 1]")
      }
      return token
    }
    let token = ActiveExperimentsToken(bits: random.next())
    try storage.setValue("\(token.value)", forKey: storageKey)
    return token
  }

  public static func < (lhs: ActiveExperimentsToken, rhs: ActiveExperimentsToken) -> Bool {
    lhs.value < rhs.value
  }
}

extension TokenRange {
  /// Whether an experiment with this range is active on a device with `token`.
  @inlinable
  public func contains(_ token: ActiveExperimentsToken) -> Bool {
    contains(token.value)
  }
}
