// SPDX-License-Identifier: Apache-2.0

/// An experiment on the remote service: variants with percentages and values,
/// the devices it targets, and once concluded, its winner.
public struct RemoteExperiment: Hashable, Sendable {
  public var name: String
  public var variants: [RemoteVariant]
  public var audience: RemoteAudience
  /// The winner once the experiment is concluded: it then gets 100%.
  public var winner: String?

  public init(name: String, variants: [RemoteVariant], audience: RemoteAudience = RemoteAudience(), winner: String? = nil) {
    self.name = name
    self.variants = variants
    self.audience = audience
    self.winner = winner
  }

  /// The variant the service gives a device, by the service's rules:
  /// - a device outside the audience and never assigned gets nothing, even
  ///   once the experiment is concluded (the audience keeps experiments that
  ///   share keys apart);
  /// - once concluded, the winner, to every other device;
  /// - a device already assigned keeps its variant while the variant exists;
  /// - otherwise a draw by the current percentages, so a change of
  ///   percentages only moves devices not yet assigned.
  ///
  /// - Parameters:
  ///   - previous: the variant the service gave this device before, if any.
  ///   - attributes: the device's user attributes.
  ///   - token: the device's active-experiments token, which Lab passes as a user attribute.
  ///   - bits: random bits for a fresh draw.
  public func assignment(previous: String?, attributes: [String: String], token: ActiveExperimentsToken, bits: UInt64) -> String? {
    let admitted = audience.admits(attributes: attributes, token: token)
    if let winner { return previous != nil || admitted ? winner : nil }
    if let previous, variants.contains(where: { $0.name == previous }) { return previous }
    guard admitted else { return nil }
    // A percentage that is not a finite share of 0 to 100 selects nothing.
    let weights = variants.map { $0.percentage.isFinite && $0.percentage > 0 ? Int((min($0.percentage, 100) * 10_000).rounded()) : 0 }
    let eligible = weights.indices.filter { weights[$0] > 0 }
    guard !eligible.isEmpty else { return nil }
    let index = WeightedSelection(weights: eligible.map { weights[$0] }).select(bits: bits)
    return variants[eligible[index]].name
  }

  /// The experiment concluded: `winner` gets 100% and every other variant 0%.
  public func concluded(winner: String) -> RemoteExperiment {
    var experiment = self
    experiment.winner = winner
    experiment.variants = variants.map { variant in
      var variant = variant
      variant.percentage = variant.name == winner ? 100 : 0
      return variant
    }
    return experiment
  }
}

/// A variant on the remote service.
public struct RemoteVariant: Hashable, Sendable {
  public var name: String
  /// The share of newly assigned devices, in percent.
  public var percentage: Double
  /// The values of the experiment's keys for this variant, by key.
  public var values: [String: RemoteValue]

  public init(name: String, percentage: Double, values: [String: RemoteValue]) {
    self.name = name
    self.percentage = percentage
    self.values = values
  }
}

/// Which devices an experiment targets: a token range, which keeps it apart
/// from experiments that share keys, and required user attributes.
public struct RemoteAudience: Hashable, Sendable {
  public var tokenRange: TokenRange
  /// Each attribute's allowed values; a device must match every attribute listed.
  public var attributes: [String: [String]]

  public init(tokenRange: TokenRange = .all, attributes: [String: [String]] = [:]) {
    self.tokenRange = tokenRange
    self.attributes = attributes
  }

  public func admits(attributes deviceAttributes: [String: String], token: ActiveExperimentsToken) -> Bool {
    tokenRange.contains(token)
      && attributes.allSatisfy { name, allowed in deviceAttributes[name].map(allowed.contains) ?? false }
  }
}
