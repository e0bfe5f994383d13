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
  /// By version: the entries of pair `p` are `entries[v][entryStart[v][p] ..< entryStart[v][p + 1]]`.
  let entryStart: [[Int]]
  let entries: [[Entry]]
  /// By row of `SimulationPlan.sharedKeys`: where its counts of served
  /// variants start, the first experiment's variants then the second's.
  let servedStart: [Int]

  init(plan: SimulationPlan) {
    var sharing: [KeySharing] = [], entryStart: [[Int]] = [], entries: [[Entry]] = []
    for version in plan.versions {
      let versionSharing = version.keySharing(remoteKeys: plan.remoteKeys)
      let slots = version.slots.count
      let ids = version.slots.map(\.experimentID) + Array(plan.remoteExperiments)
      func side(_ index: Int, key: String) -> (remote: Int, bit: UInt64) {
        guard index >= slots else { return (-1, .max) }
        let remote = index - slots
        return (remote, 1 << UInt64(plan.remoteKeys[remote].firstIndex(of: key)!))
      }
      var starts = [0], versionEntries: [Entry] = []
      for pair in versionSharing.pairs {
        let experiments = [ids[pair.first], ids[pair.second]].sorted()
        for key in pair.keys {
          let first = side(pair.first, key: key), second = side(pair.second, key: key)
          versionEntries.append(Entry(
            row: plan.sharedKeys.firstIndex { $0.key == key && $0.experiments == experiments }!,
            firstRemote: first.remote, firstBit: first.bit, secondRemote: second.remote, secondBit: second.bit))
        }
        starts.append(versionEntries.count)
      }
      sharing.append(versionSharing)
      entryStart.append(starts)
      entries.append(versionEntries)
    }
    self.sharing = sharing
    isDisjoint = sharing.map(\.isDisjoint)
    self.entryStart = entryStart
    self.entries = entries
    var servedStart = [0]
    for shared in plan.sharedKeys {
      servedStart.append(servedStart.last! + shared.experiments.map { plan.variantNames[$0].count }.reduce(0, +))
    }
    self.servedStart = servedStart
  }

  /// Whether a pair's entry is a key both sides hold at a launch, given the
  /// keys each remote experiment serves then.
  @inline(__always)
  static func isShared(_ entry: Entry, servedKeys: [UInt64]) -> Bool {
    (entry.firstRemote < 0 || servedKeys[entry.firstRemote] & entry.firstBit != 0)
      && (entry.secondRemote < 0 || servedKeys[entry.secondRemote] & entry.secondBit != 0)
  }
}
