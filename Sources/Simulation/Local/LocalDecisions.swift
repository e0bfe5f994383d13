import Lab

/// The local source on one device, by Lab's `LocalDecision`: the record it
/// keeps of each experiment, and each launch's decisions for the running
/// version's slots. It counts nothing: `TransitionCounter`, `ServedExperiments`
/// and the simulator's display read it.
struct LocalDecisions: ~Copyable {
  /// Per experiment: the record the local source keeps.
  private(set) var records: ScratchArray<LocalRecord>
  /// Per experiment: the records as they were before an upgrade that decided afresh.
  private(set) var recordsBefore: ScratchArray<LocalRecord>
  /// Per experiment: the active record it held before its record last
  /// changed, `.none` if it was never active, so that a return can be compared with it.
  private(set) var lastActive: ScratchArray<LocalRecord>
  /// Per experiment, the slot whose weights selected the current variant, and
  /// the variants of that selection that every later launch still defined.
  private(set) var selectionSlot: ScratchArray<Int>
  private(set) var eligibleVariants: ScratchArray<UInt64>
  /// Per slot of the running version: the local variant it decided, −1 for inactive.
  private(set) var decisions: ScratchArray<Int>
  /// The slots active at this launch, in order, by their index in the
  /// running version's slots, by experiment and by global variant: displays
  /// and transitions visit the experiments a device is in rather than every
  /// experiment of the plan.
  private(set) var activeIndexes: ScratchArray<Int>
  private(set) var activeExperiments: ScratchArray<Int>
  private(set) var activeVariants: ScratchArray<Int>
  private(set) var activeCount = 0
  /// How many launches of the device have decided so far: the decisions
  /// stay as they are between two, which lets the manager's merge of the
  /// same version be kept (`ServedExperiments`).
  private(set) var decisionRound = 0
  /// At an upgrade that decides afresh, the experiments active at the launch before.
  private(set) var previousActiveExperiments: ScratchArray<Int>
  private(set) var previousActiveCount = 0

  init(tables: borrowing @_addressable SimulationTables) {
    let experiments = tables.experimentCount, slots = tables.maximumSlots
    records = ScratchArray(repeating: .none, count: experiments)
    recordsBefore = ScratchArray(repeating: .none, count: experiments)
    lastActive = ScratchArray(repeating: .none, count: experiments)
    selectionSlot = ScratchArray(repeating: 0, count: experiments)
    eligibleVariants = ScratchArray(repeating: 0, count: experiments)
    decisions = ScratchArray(repeating: -1, count: slots)
    activeIndexes = ScratchArray(repeating: 0, count: slots)
    activeExperiments = ScratchArray(repeating: 0, count: slots)
    activeVariants = ScratchArray(repeating: 0, count: slots)
    previousActiveExperiments = ScratchArray(repeating: 0, count: slots)
  }

  /// A new device: no records.
  @inline(__always)
  mutating func reset() {
    activeCount = 0
    decisionRound = 0
    records.fill(.none)
    lastActive.fill(.none)
  }

  /// An upgrade whose launch decides afresh: keeps the records and the active
  /// experiments of the launch before, for `TransitionCounter`, then decides.
  mutating func decideAfterUpgrade(
    version: Int, token: ActiveExperimentsToken, draws: inout RandomStream, tables: borrowing @_addressable SimulationTables
  ) {
    recordsBefore.copy(from: records)
    swap(&previousActiveExperiments, &activeExperiments)
    previousActiveCount = activeCount
    decide(version: version, token: token, draws: &draws, tables: tables)
  }

  /// The local source at launch: records of experiments the version does not
  /// define are deleted, and every defined experiment is decided.
  mutating func decide(
    version: Int, token: ActiveExperimentsToken, draws: inout RandomStream, tables: borrowing @_addressable SimulationTables
  ) {
    for index in tables.undefinedStart[version]..<tables.undefinedStart[version + 1] {
      replace(tables.undefined[index], with: .none)
    }
    let slotStart = tables.slotStart[version]
    activeCount = 0
    decisionRound += 1
    for slot in slotStart..<tables.slotStart[version + 1] {
      let experiment = tables.slotExperiment[slot]
      let record = records[experiment]
      let remembered: LocalRecall
      if record == .none {
        remembered = .nothing
      } else if record == .inactive {
        remembered = .inactive
      } else {
        let local = tables.localOfGlobal[tables.slotLocalStart[slot] + record.variant]
        remembered = local >= 0 ? .variant(local) : .deletedVariant
      }
      let decision = LocalDecision.decide(recall: remembered, range: tables.slotRange[slot], token: token) {
        tables.select(slot: slot, bits: draws.next())
      }
      decisions[slot - slotStart] = decision.variant ?? -1
      let global = decision.variant.map { tables.globalOfLocal[tables.slotGlobalStart[slot] + $0] }
      if let global {
        activeIndexes[activeCount] = slot - slotStart
        activeExperiments[activeCount] = experiment
        activeVariants[activeCount] = global
        activeCount += 1
      }
      if case .variant = remembered {
        eligibleVariants[experiment] &= tables.slotVariantMask[slot]
      } else if decision.variant != nil {
        selectionSlot[experiment] = slot
        eligibleVariants[experiment] = tables.slotVariantMask[slot]
      }
      replace(experiment, with: global.map(LocalRecord.active) ?? .inactive)
    }
  }

  /// Replaces an experiment's record, remembering the variant it held if it
  /// was active.
  private mutating func replace(_ experiment: Int, with record: LocalRecord) {
    if records[experiment].isActive { lastActive[experiment] = records[experiment] }
    records[experiment] = record
  }
}
