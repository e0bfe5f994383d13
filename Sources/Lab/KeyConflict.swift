// SPDX-License-Identifier: Apache-2.0

/// Two experiments that share keys and can be active on the same device: on
/// any device whose token falls in `tokens`, the assignments manager serves
/// only the one first in its merge order (`KeySharing.serve`).
public struct KeyConflict: Hashable, Sendable, CustomStringConvertible {
  /// The two experiments' names, sorted.
  public let experiments: [String]
  /// The keys both define, sorted.
  public let keys: [String]
  /// The tokens for which both are active.
  public let tokens: TokenRange

  public init(experiments: [String], keys: [String], tokens: TokenRange) {
    self.experiments = experiments
    self.keys = keys
    self.tokens = tokens
  }

  /// Every pair of `experiments` that shares a key and whose active token
  /// ranges intersect, in the order the experiments are given.
  ///
  /// The doc's example: A [0.1, 0.3], B [0.5, 0.8] and C [0.7, 0.9] all with
  /// one key give the single conflict B–C, on [0.7, 0.8).
  public static func find(in experiments: [Experiment]) -> [KeyConflict] {
    KeySharing(experiments).pairs.compactMap { pair in
      let first = experiments[pair.first], second = experiments[pair.second]
      return first.activeTokenRange.intersection(second.activeTokenRange).map {
        KeyConflict(experiments: [first.name, second.name].sorted(), keys: pair.keys, tokens: $0)
      }
    }
  }

  public var description: String {
    "\(experiments.joined(separator: " and ")) share \(keys.map { "'\($0)'" }.joined(separator: ", ")) "
      + "and are both active for tokens in \(tokens)"
  }
}
