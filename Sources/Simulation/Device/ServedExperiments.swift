import Lab

/// The assignments manager's merge at each launch, by `KeySharing.serve`:
/// which active experiments it serves (the version's slots, then the remote
/// experiments), and the clashes on keys they share, counted over a batch's
/// devices into `RunTally.conflicts`.
struct ServedExperiments: DevicePart, ~Copyable {
  /// Per position of the running version's merge order: whether the manager
  /// served it at this launch.
  private(set) var served: ScratchArray<Bool>
  /// `KeySharing.serve`'s array, for versions whose experiments share keys.
  private var sharingServed: [Bool]
  /// Per remote experiment, the keys it serves at this launch (`RemoteDevice.servedKeys`).
  private var remoteServedKeys: ScratchArray<UInt64>
  /// The pairs `KeySharing.serve` reported discarded at this launch.
  private var discardedPairs: [Int] = []
  /// The merge order of the version `serve` last met, kept so that a launch
  /// reads it in place rather than copying it out of the tables.
  private var sharing: KeySharing
  private var sharingVersion = 0
  /// The version and decision round (`LocalDecisions.decisionRound`) of the
  /// merge `served` and `discardedPairs` hold, −1 for none: without remote
  /// experiments, a relaunch of the version with the same decisions merges
  /// to the same result, and only its day is new.
  private var mergedVersion = -1
  private var mergedRound = -1
  /// The device: per row of `plan.sharedKeys`, whether it met a clash on it;
  /// per entry of `ClashTables.servedStart`, whether that variant was served at one.
  private var clashSeen: ScratchArray<Bool>
  private var clashServedSeen: ScratchArray<Bool>
  /// The clashes of the current launch, for observers.
  private(set) var launchClashes: [LaunchClash] = []
  /// The batch's counts, by row of `plan.sharedKeys`.
  private var conflicts: [ConflictTally]

  init(plan: SimulationPlan, tables: borrowing @_addressable SimulationTables) {
    let positions = tables.maximumSlots + tables.remote.count
    served = ScratchArray(repeating: false, count: positions)
    sharingServed = Array(repeating: false, count: positions)
    remoteServedKeys = ScratchArray(repeating: 0, count: tables.remote.count)
    sharing = tables.clashes.sharing[0]
    clashSeen = ScratchArray(repeating: false, count: plan.sharedKeys.count)
    clashServedSeen = ScratchArray(repeating: false, count: tables.clashes.servedStart.last!)
    conflicts = RunTally.emptyConflicts(plan: plan)
  }

  /// A new device: no clash met.
  @inline(__always)
  mutating func reset(device _: Int, random _: DeviceRandom) {
    clashSeen.fill(false)
    clashServedSeen.fill(false)
    mergedVersion = -1
  }

  /// Serves the active experiments of a launch, and counts the clashes on
  /// `sharedKeys` (`SimulationPlan.sharedKeys`).
  ///
  /// The clashes are kept as `LaunchClash`es for observers only when
  /// `observing`, since spelling out their keys allocates. In a version whose
  /// experiments share no key every active slot is served, which the
  /// simulator's display knows; the slots' flags are then set for observers only.
  @inline(__always)
  mutating func serve(
    version: Int, day: Int, observing: Bool, local: borrowing @_addressable LocalDecisions,
    remote: borrowing @_addressable RemoteDevice,
    tables: borrowing @_addressable SimulationTables, sharedKeys: [SharedKey]
  ) {
    let slots = tables.slotStart[version + 1] - tables.slotStart[version], remoteCount = tables.remote.count
    if !launchClashes.isEmpty { launchClashes.removeAll(keepingCapacity: true) }
    guard !tables.clashes.isDisjoint[version] else {
      mergedVersion = -1
      if observing {
        for index in 0..<slots { served[index] = local.decisions[index] >= 0 }
      }
      for r in 0..<remoteCount { served[slots + r] = remote.held[r] >= 0 }
      return
    }
    if remoteCount > 0 || mergedVersion != version || mergedRound != local.decisionRound {
      for r in 0..<remoteCount { remoteServedKeys[r] = remote.servedKeys(r) }
      if sharingVersion != version {
        sharing = tables.clashes.sharing[version]
        sharingVersion = version
      }
      if !discardedPairs.isEmpty { discardedPairs.removeAll(keepingCapacity: true) }
      Self.merge(
        sharing, version: version, slots: slots, decisions: local.decisions, remoteHeld: remote.held,
        servedKeys: remoteServedKeys,
        clashes: tables.clashes, served: &sharingServed, discarded: &discardedPairs)
      for index in 0..<(slots + remoteCount) { served[index] = sharingServed[index] }
      mergedVersion = version
      mergedRound = local.decisionRound
    }
    for pair in discardedPairs {
      let sides = sharing.sides(ofPair: pair)
      let kept = Self.heldVariant(
        sides.first, version: version, decisions: local.decisions, remoteHeld: remote.held, tables: tables)
      for index in tables.clashes.entryRange(version: version, pair: pair)
      where ClashTables.isShared(tables.clashes.entries[index], servedKeys: remoteServedKeys) {
        let row = tables.clashes.entries[index].row
        clashSeen[row] = true
        conflicts[row].firstDay = min(conflicts[row].firstDay ?? day, day)
        conflicts[row].lastDay = max(conflicts[row].lastDay ?? day, day)
        let side = tables.clashes.rowFirstExperiment[row] == kept.experiment ? 0 : tables.clashes.rowSecondOffset[row]
        clashServedSeen[tables.clashes.servedStart[row] + side + kept.variant] = true
      }
      if observing {
        let discarded = Self.heldVariant(
          sides.second, version: version, decisions: local.decisions, remoteHeld: remote.held, tables: tables)
        let keys = tables.clashes.entryRange(version: version, pair: pair)
          .filter { ClashTables.isShared(tables.clashes.entries[$0], servedKeys: remoteServedKeys) }
          .map { sharedKeys[tables.clashes.entries[$0].row].key }
        launchClashes.append(LaunchClash(
          keys: keys.sorted(), servedExperiment: kept.experiment, servedVariant: kept.variant,
          discardedExperiment: discarded.experiment, discardedVariant: discarded.variant))
      }
    }
  }

  /// `KeySharing.serve` on the launch's active experiments: a function of its
  /// own, so that its closures read the parts lent to it rather than `self`.
  @inline(__always)
  private static func merge(
    _ sharing: KeySharing, version: Int, slots: Int, decisions: borrowing ScratchArray<Int>, remoteHeld: borrowing ScratchArray<Int>,
    servedKeys: borrowing ScratchArray<UInt64>, clashes: ClashTables, served: inout [Bool], discarded: inout [Int]
  ) {
    sharing.serve(
      isActive: { $0 < slots ? decisions[$0] >= 0 : remoteHeld[$0 - slots] >= 0 },
      sharesKey: { pair in
        clashes.entryRange(version: version, pair: pair).contains {
          ClashTables.isShared(clashes.entries[$0], servedKeys: servedKeys)
        }
      },
      served: &served
    ) { discarded.append($0) }
  }

  /// The plan's numbers of the experiment at position `index` of a version's
  /// merge order and of the variant it holds at this launch.
  @inline(__always)
  private static func heldVariant(
    _ index: Int, version: Int, decisions: borrowing ScratchArray<Int>, remoteHeld: borrowing ScratchArray<Int>,
    tables: borrowing @_addressable SimulationTables
  ) -> (experiment: Int, variant: Int) {
    let slotStart = tables.slotStart[version], slots = tables.slotStart[version + 1] - slotStart
    guard index < slots else {
      return (tables.remote.globalID[index - slots], remoteHeld[index - slots])
    }
    let slot = slotStart + index
    return (tables.slotExperiment[slot], tables.globalOfLocal[tables.slotGlobalStart[slot] + decisions[index]])
  }

  /// Counts the device once for each shared key it met a clash on, and for
  /// each variant served at one.
  mutating func countDevice(tables: borrowing @_addressable SimulationTables) {
    for row in clashSeen.indices where clashSeen[row] {
      conflicts[row].devices += 1
      let start = tables.clashes.servedStart[row]
      for index in start..<tables.clashes.servedStart[row + 1] where clashServedSeen[index] {
        conflicts[row].served[index - start] += 1
      }
    }
  }

  func fold(into tally: inout RunTally, tables _: borrowing @_addressable SimulationTables) {
    for row in conflicts.indices { tally.conflicts[row].mergeCounts(of: conflicts[row]) }
  }
}
