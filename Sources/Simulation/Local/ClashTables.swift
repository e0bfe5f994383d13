import Lab

/// Where the assignments manager can meet two active experiments that share a
/// key, as tables the device loop reads: per version, the manager's merge
/// order (`KeySharing`), and for each pair of that order that shares keys, each
/// shared key with the row of `SimulationPlan.sharedKeys` it counts under and
/// the remote key bits a launch must hold for the key to be shared then (a
/// remote experiment holds only the keys its last delivery declared).
struct ClashTables {
  /// One key of one pair.
  struct Entry {
    /// The row of `SimulationPlan.sharedKeys`.
    let row: Int
    /// For each side of the pair, the remote experiment (-1 when local) and
    /// the key's bit in its held keys (all bits when local).
    let firstRemote: Int
    let firstBit: UInt64
    let secondRemote: Int
    let secondBit: UInt64
  }

  /// By version: the merge order of its local experiments and every remote one.
  let sharing: [KeySharing]
  /// By version: whether no two of its experiments share a key, read first at
  /// every launch so that the common case touches no `KeySharing`.
  let isDisjoint: [Bool]
  /// The entries of pair `p` of version `v` are
  /// `entries[entryStart[pairStart[v] + p] ..< entryStart[pairStart[v] + p + 1]]`.
  let pairStart: [Int]
  let entryStart: [Int]
  let entries: [Entry]
  /// By row of `SimulationPlan.sharedKeys`: where its counts of served
  /// variants start, the first experiment's variants then the second's.
  let servedStart: [Int]
  /// By row: its first experiment, and where the second's variants start
  /// after the first's.
  let rowFirstExperiment: [Int]
  let rowSecondOffset: [Int]

  init(plan: SimulationPlan) {
    var sharing: [KeySharing] = [], pairStart = [0], entryStart = [0], entries: [Entry] = []
    for version in plan.versions {
      let versionSharing = version.keySharing(remoteKeys: plan.remoteKeys)
      let slots = version.slots.count
      let ids = version.slots.map(\.experimentID) + Array(plan.remoteExperiments)
      func side(_ index: Int, key: String) -> (remote: Int, bit: UInt64) {
        guard index >= slots else { return (-1, .max) }
        let remote = index - slots
        return (remote, 1 << UInt64(plan.remoteKeys[remote].firstIndex(of: key)!))
      }
      for pair in versionSharing.pairs {
        let experiments = [ids[pair.first], ids[pair.second]].sorted()
        for key in pair.keys {
          let first = side(pair.first, key: key), second = side(pair.second, key: key)
          entries.append(Entry(
            row: plan.sharedKeys.firstIndex { $0.key == key && $0.experiments == experiments }!,
            firstRemote: first.remote, firstBit: first.bit, secondRemote: second.remote, secondBit: second.bit))
        }
        entryStart.append(entries.count)
      }
      sharing.append(versionSharing)
      pairStart.append(entryStart.count - 1)
    }
    self.sharing = sharing
    isDisjoint = sharing.map(\.isDisjoint)
    self.pairStart = pairStart
    self.entryStart = entryStart
    self.entries = entries
    var servedStart = [0]
    for shared in plan.sharedKeys {
      servedStart.append(servedStart.last! + shared.experiments.map { plan.variantNames[$0].count }.reduce(0, +))
    }
    self.servedStart = servedStart
    rowFirstExperiment = plan.sharedKeys.map { $0.experiments[0] }
    rowSecondOffset = plan.sharedKeys.map { plan.variantNames[$0.experiments[0]].count }
  }

  /// The range of `entries` of pair `pair` of version `version`.
  @inline(__always)
  func entryRange(version: Int, pair: Int) -> Range<Int> {
    entryStart[pairStart[version] + pair]..<entryStart[pairStart[version] + pair + 1]
  }

  /// Whether a pair's entry is a key both sides hold at a launch, given the
  /// keys each remote experiment serves then.
  @inline(__always)
  static func isShared(_ entry: Entry, servedKeys: borrowing ScratchArray<UInt64>) -> Bool {
    (entry.firstRemote < 0 || servedKeys[entry.firstRemote] & entry.firstBit != 0)
      && (entry.secondRemote < 0 || servedKeys[entry.secondRemote] & entry.secondBit != 0)
  }
}
