// SPDX-License-Identifier: Apache-2.0

/// Lab's one restriction on sources: no two active experiments may share a
/// key. This type knows which experiments of an ordered set share keys, and
/// what the assignments manager serves when a plan breaks the restriction, so
/// that the manager, the static conflict check and a simulation all apply it
/// the same way.
public struct KeySharing: Hashable, Sendable {
  /// Two experiments, by their position in the set, and the keys they share.
  public struct Pair: Hashable, Sendable {
    public let first: Int
    public let second: Int
    /// The shared keys, sorted.
    public let keys: [String]
  }

  /// How many experiments the set holds.
  public let count: Int
  /// The pairs' positions, flat, so that checking a launch touches no strings.
  @usableFromInline let firsts: [Int]
  @usableFromInline let seconds: [Int]
  private let sharedKeys: [[String]]
  /// The pairs whose second experiment is `e` are
  /// `pairsBySecond[pairsBySecondStart[e] ..< pairsBySecondStart[e + 1]]`, in
  /// the order of their first experiment.
  @usableFromInline let pairsBySecondStart: [Int]
  @usableFromInline let pairsBySecond: [Int]

  /// - Parameter keys: each experiment's keys, in the order of the set.
  public init(keys: [[String]]) {
    var firsts: [Int] = [], seconds: [Int] = [], sharedKeys: [[String]] = []
    for first in keys.indices {
      let firstKeys = Set(keys[first])
      for second in keys.indices.dropFirst(first + 1) {
        let shared = firstKeys.intersection(keys[second])
        guard !shared.isEmpty else { continue }
        firsts.append(first)
        seconds.append(second)
        sharedKeys.append(shared.sorted())
      }
    }
    count = keys.count
    self.firsts = firsts
    self.seconds = seconds
    self.sharedKeys = sharedKeys
    let bySecond = firsts.indices.sorted { (seconds[$0], firsts[$0]) < (seconds[$1], firsts[$1]) }
    var starts = [0]
    for experiment in 0..<keys.count {
      starts.append(starts[experiment] + bySecond[starts[experiment]...].prefix { seconds[$0] == experiment }.count)
    }
    pairsBySecondStart = starts
    pairsBySecond = bySecond
  }

  public init(_ experiments: [Experiment]) {
    self.init(keys: experiments.map(\.keys))
  }

  /// Every pair that shares at least one key, ordered by first, then second.
  public var pairs: [Pair] {
    firsts.indices.map(pair(at:))
  }

  /// Whether no two experiments of the set share a key: then every active
  /// experiment is served and `serve` has nothing to decide.
  @inlinable
  public var isDisjoint: Bool { firsts.isEmpty }

  public func pair(at index: Int) -> Pair {
    Pair(first: firsts[index], second: seconds[index], keys: sharedKeys[index])
  }

  /// The positions of the pair at an index of `pairs`, without its keys.
  @inlinable
  public func sides(ofPair index: Int) -> (first: Int, second: Int) {
    (firsts[index], seconds[index])
  }

  /// What the assignments manager serves, as the original `LABAssignmentsManager`
  /// merges sources: experiments are taken in the set's order (sources in the
  /// manager's order, then experiments in each source's order), and an active
  /// experiment whose keys meet a key an experiment already served holds is
  /// discarded whole. Every other active experiment is served.
  ///
  /// - Parameters:
  ///   - isActive: whether the experiment at a position is active.
  ///   - sharesKey: whether the pair at an index of `pairs` shares a key at
  ///     this launch; a remote experiment can hold fewer keys than it ever
  ///     declared, so a simulation asks. The manager passes `{ _ in true }`.
  ///   - served: one flag per experiment, overwritten with whether it is served.
  ///   - discarded: called once for each pair of a served experiment and an
  ///     experiment discarded for sharing a key with it, in the set's order.
  ///
  /// - Complexity: O(`count` + pairs).
  @inlinable
  public func serve(
    isActive: (Int) -> Bool,
    sharesKey: (Int) -> Bool,
    served: inout [Bool],
    discarded: (_ pair: Int) -> Void
  ) {
    for experiment in 0..<count {
      guard isActive(experiment) else {
        served[experiment] = false
        continue
      }
      var isServed = true
      for index in pairsBySecondStart[experiment]..<pairsBySecondStart[experiment + 1] {
        let pair = pairsBySecond[index]
        guard served[firsts[pair]], sharesKey(pair) else { continue }
        isServed = false
        discarded(pair)
      }
      served[experiment] = isServed
    }
  }
}
