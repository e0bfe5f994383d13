/// Lab's one restriction on sources: no two active experiments may share a
/// key. This type knows which experiments of a set share keys, so that the
/// assignments manager, the static conflict check and a simulation all apply
/// the restriction the same way.
public struct KeySharing: Hashable, Sendable {
  /// Two experiments, by their position in the set, and the keys they share.
  public struct Pair: Hashable, Sendable {
    public let first: Int
    public let second: Int
    /// The shared keys, sorted.
    public let keys: [String]
  }

  /// The pairs' positions, flat, so that checking a launch touches no strings.
  @usableFromInline let firsts: [Int]
  @usableFromInline let seconds: [Int]
  private let sharedKeys: [[String]]

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
    self.firsts = firsts
    self.seconds = seconds
    self.sharedKeys = sharedKeys
  }

  public init(_ experiments: [Experiment]) {
    self.init(keys: experiments.map(\.keys))
  }

  /// Every pair that shares at least one key, ordered by first, then second.
  public var pairs: [Pair] {
    firsts.indices.map(pair(at:))
  }

  public func pair(at index: Int) -> Pair {
    Pair(first: firsts[index], second: seconds[index], keys: sharedKeys[index])
  }

  /// The index in `pairs` of the first pair of experiments that share a key
  /// and are both active, or `nil` when the active experiments may be exposed
  /// together.
  @inlinable
  public func conflict(isActive: (Int) -> Bool) -> Int? {
    for index in firsts.indices where isActive(firsts[index]) && isActive(seconds[index]) {
      return index
    }
    return nil
  }
}
