// SPDX-License-Identifier: Apache-2.0

/// The remote source's rules for taking a fetch, in one place for every
/// caller: `RemoteSource`, and a simulation that keeps the same state as numbers.
public enum RemoteRules {
  /// What a successful fetch does to one experiment on the device.
  public enum Update: Hashable, Sendable {
    /// Take the delivered variant and its values.
    case take
    /// Forget the experiment: the service no longer gives it to the device.
    case drop
    /// Keep the stored variant and values; only overridden keys follow the service.
    case keep
    /// Leave the experiment out: a stabilized device exposes no new experiment.
    case ignore
  }

  /// - Parameters:
  ///   - isStabilized: whether the device called stabilize before this fetch.
  ///   - isStored: whether the device holds the experiment from an earlier fetch.
  ///   - isDelivered: whether the fetch gives the device a variant of it.
  public static func update(isStabilized: Bool, isStored: Bool, isDelivered: Bool) -> Update {
    if isStabilized { return isStored ? .keep : .ignore }
    return isDelivered ? .take : .drop
  }

  /// Why a key's value is the app's default rather than the service's.
  public enum Fallback: String, Hashable, Sendable {
    /// The delivered variant has no value for the key.
    case keyNotFound = "key not found"
    /// The value is not of the type of the app's default.
    case incorrectValue = "incorrect value"
  }

  /// The value a key takes: the delivered one when it exists and has the
  /// type of the app's default, the default otherwise. Without a default, any
  /// string or number is taken.
  public static func value(
    delivered: RemoteValue?, default fallback: AssignmentValue?
  ) -> (value: AssignmentValue?, fallback: Fallback?) {
    guard let delivered else { return (fallback, .keyNotFound) }
    switch (delivered, fallback) {
    case (.string(let string), .string?), (.string(let string), nil): return (.string(string), nil)
    case (.number(let number), .number?), (.number(let number), nil): return (.number(number), nil)
    default: return (fallback, .incorrectValue)
    }
  }
}
