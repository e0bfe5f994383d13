// SPDX-License-Identifier: Apache-2.0

/// Two active experiments that met on a key at one merge: the assignments
/// manager served the first in its order and discarded the other's variant
/// whole (`KeySharing.serve`).
///
/// Lab forbids the situation; when a plan breaks the rule anyway, the manager
/// keeps every experiment it can and reports each clash to its delegate, so
/// that the app can log what it did not serve.
public struct KeyClash: Hashable, Sendable {
  /// The keys both variants supply, sorted.
  public let keys: [String]
  /// The variant the manager served: it came first in the merge order.
  public let served: ActiveVariant
  /// The variant the manager discarded, with all its keys.
  public let discarded: ActiveVariant

  public init(keys: [String], served: ActiveVariant, discarded: ActiveVariant) {
    self.keys = keys
    self.served = served
    self.discarded = discarded
  }
}

extension KeyClash: CustomStringConvertible {
  public var description: String {
    "\(served.experiment)/\(served.variant.name) (\(served.source)) and \(discarded.experiment)/\(discarded.variant.name) "
      + "(\(discarded.source)) share \(keys.map { "'\($0)'" }.joined(separator: ", ")): "
      + "served \(served.experiment), discarded \(discarded.experiment)"
  }
}
