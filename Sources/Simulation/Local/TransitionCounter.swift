/// How an upgrade leaves a device in one experiment: the fields of `TransitionCounts`.
enum Transition: Int, CaseIterable {
  case kept, reassigned, deactivated, activated, returned, returnedOnAnotherVariant

  /// How many there are, known to the compiler (`allCases.count` builds an array).
  static var count: Int { returnedOnAnotherVariant.rawValue + 1 }

  /// The field of `TransitionCounts` that counts it.
  var field: WritableKeyPath<TransitionCounts, Int> {
    switch self {
    case .kept: \.kept
    case .reassigned: \.reassigned
    case .deactivated: \.deactivated
    case .activated: \.activated
    case .returned: \.returned
    case .returnedOnAnotherVariant: \.returnedOnAnotherVariant
    }
  }
}

/// Counts, over a batch's devices, how each upgrade between launches left each
/// experiment (`ExperimentTally.transitions`), from the local source's records
/// before and after it (`LocalDecisions`).
struct TransitionCounter: DevicePart, ~Copyable {
  private let experiments: Int
  private let versions: Int
  /// By `index(_:experiment:from:to:)`.
  private var counts: ScratchArray<Int>

  init(tables: borrowing @_addressable SimulationTables) {
    experiments = tables.experimentCount
    versions = tables.versionCount
    counts = ScratchArray(repeating: 0, count: experiments * versions * versions * Transition.count)
  }

  @inline(__always)
  private func index(_ transition: Transition, experiment: Int, from: Int, to: Int) -> Int {
    ((from * versions + to) * experiments + experiment) * Transition.count + transition.rawValue
  }

  /// An upgrade that carried the decisions over (`SimulationTables.carriesDecisions`):
  /// every active experiment is kept, and nothing else changes.
  @inline(__always)
  mutating func countCarried(from: Int, to: Int, local: borrowing @_addressable LocalDecisions) {
    for position in 0..<local.activeCount {
      counts[index(.kept, experiment: local.activeExperiments[position], from: from, to: to)] += 1
    }
  }

  /// Compares each experiment before and after an upgrade that decided afresh.
  /// `LocalDecisions.lastActive` holds the variant each held before its most
  /// recent change of record.
  ///
  /// Only an experiment active before or after changes a count: those active
  /// at the launch before (every record active then, since each launch
  /// decides, carries or deletes every record) and at this one.
  @inline(__always)
  mutating func count(from: Int, to: Int, local: borrowing @_addressable LocalDecisions) {
    for position in 0..<local.previousActiveCount {
      let experiment = local.previousActiveExperiments[position]
      if !local.records[experiment].isActive {
        counts[index(.deactivated, experiment: experiment, from: from, to: to)] += 1
      }
    }
    for position in 0..<local.activeCount {
      let experiment = local.activeExperiments[position]
      let before = local.recordsBefore[experiment], after = local.records[experiment]
      if before.isActive {
        counts[index(before == after ? .kept : .reassigned, experiment: experiment, from: from, to: to)] += 1
      } else {
        counts[index(.activated, experiment: experiment, from: from, to: to)] += 1
        let last = local.lastActive[experiment]
        if last.isActive {
          counts[index(.returned, experiment: experiment, from: from, to: to)] += 1
          if last != after { counts[index(.returnedOnAnotherVariant, experiment: experiment, from: from, to: to)] += 1 }
        }
      }
    }
  }

  /// Keeps nothing of a device: counts add up across devices.
  mutating func reset(device _: Int, random _: DeviceRandom) {}

  func fold(into tally: inout RunTally, tables _: borrowing @_addressable SimulationTables) {
    for experiment in 0..<experiments {
      for from in 0..<versions {
        for to in 0..<versions {
          for transition in Transition.allCases {
            tally.experiments[experiment].transitions[from * versions + to][keyPath: transition.field] +=
              counts[index(transition, experiment: experiment, from: from, to: to)]
          }
        }
      }
    }
  }
}
