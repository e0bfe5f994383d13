// SPDX-License-Identifier: Apache-2.0

import Lab

/// One device running successive app versions with a local source, as an app
/// would: the same storage across launches, a fresh source and manager each time.
public struct Device {
  public let storage = InMemoryStorage()
  public let analytics = RecordingDelegate()
  public private(set) var random: SeededGenerator
  public let token: ActiveExperimentsToken

  /// A new device whose token and draws come from `seed`, or whose token is
  /// `token` when given.
  public init(seed: UInt64, token: Double? = nil) throws {
    random = SeededGenerator(seed: seed)
    if let token {
      storage.setValue("\(token)", forKey: ActiveExperimentsToken.storageKey)
    }
    self.token = try ActiveExperimentsToken.load(from: storage, generatingWith: &random)
  }

  /// Launches a version that defines `experiments` and returns its manager.
  ///
  /// - Parameter draws: the exact random bits the launch must use, in order,
  ///   to pin which variants are selected; the device's seeded generator when
  ///   `nil`.
  @discardableResult
  public mutating func launch(_ experiments: [Experiment], draws: [UInt64]? = nil) throws -> AssignmentsManager {
    let source: LocalSource
    if let draws {
      var scripted = ScriptedGenerator(draws)
      source = try LocalSource(experiments: experiments, token: token, storage: storage, random: &scripted)
      precondition(scripted.remaining == 0, "the launch drew \(draws.count - scripted.remaining) of \(draws.count) values")
    } else {
      source = try LocalSource(experiments: experiments, token: token, storage: storage, random: &random)
    }
    return try AssignmentsManager(sources: [source], storage: storage, delegate: analytics)
  }
}

extension AssignmentsManager {
  /// The name of the active variant of `experiment`, or `nil` when it is not active.
  public func variant(of experiment: String) -> String? {
    activeAssignments.values.first { $0.experiment == experiment }?.variant
  }
}

extension WeightedSelection {
  /// The smallest random bits that select the variant at `index`, so a test
  /// can pin a selection without knowing the mapping's arithmetic.
  public func bits(selecting index: Int) -> UInt64 {
    let total = cumulative[cumulative.count - 1]
    let before = index == 0 ? 0 : cumulative[index - 1]
    let (quotient, remainder) = total.dividingFullWidth((high: before, low: 0))
    return remainder == 0 ? quotient : quotient + 1
  }
}
