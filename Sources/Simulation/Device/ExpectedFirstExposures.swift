import Tallies

/// The split the configuration should produce among first exposures,
/// `VariantTally.expectedFirstExposed`, for the sample ratio mismatch check:
/// at a device's first display of an experiment, its chance of being first
/// shown each variant.
struct ExpectedFirstExposures: DevicePart, ~Copyable {
  /// By `tables.variantStart[experiment] + variant`.
  private var expected: ScratchArray<ExactSum>
  /// By slot: the first exposures whose variant that slot's weights selected
  /// with every one of its variants still eligible, the usual case, whose
  /// shares `fold` adds once per slot.
  private var wholeSlot: ScratchArray<Int>

  init(tables: borrowing @_addressable SimulationTables) {
    expected = ScratchArray(repeating: ExactSum(), count: tables.variantStart[tables.experimentCount])
    wholeSlot = ScratchArray(repeating: 0, count: tables.slotExperiment.count)
  }

  /// A local experiment: the weights of the slot that selected its variant
  /// over the variants still eligible (`LocalDecisions.selectionSlot` and
  /// `eligibleVariants`), normalised.
  @inline(__always)
  mutating func count(_ experiment: Int, slot: Int, eligible: UInt64, tables: borrowing @_addressable SimulationTables) {
    guard eligible != tables.slotVariantMask[slot] else {
      wholeSlot[slot] += 1
      return
    }
    let start = tables.variantStart[experiment]
    Self.forEachShare(experiment, slot: slot, eligible: eligible, tables: tables) { expected[start + $0].add($1) }
  }

  /// An experiment a service assigned: the split that assigned its variant.
  mutating func count(_ experiment: Int, shares: [Double], tables: borrowing @_addressable SimulationTables) {
    for (variant, share) in shares.enumerated() where share > 0 {
      expected[tables.variantStart[experiment] + variant].add(share)
    }
  }

  /// Calls `body` with each variant in `eligible` and its share under the slot's weights.
  @inline(__always)
  private static func forEachShare(
    _ experiment: Int, slot: Int, eligible: UInt64, tables: borrowing @_addressable SimulationTables,
    _ body: (Int, Double) -> Void
  ) {
    let base = slot * tables.variantStride
    let variants = tables.variantCount(experiment)
    var total: UInt64 = 0
    for variant in 0..<variants where eligible & (1 &<< UInt64(variant)) != 0 {
      total += tables.slotWeights[base + variant]
    }
    for variant in 0..<variants where eligible & (1 &<< UInt64(variant)) != 0 {
      body(variant, Double(tables.slotWeights[base + variant]) / Double(total))
    }
  }

  /// Keeps nothing of a device: counts add up across devices.
  mutating func reset(device _: Int, random _: DeviceRandom) {}

  func fold(into tally: inout RunTally, tables: borrowing @_addressable SimulationTables) {
    for experiment in 0..<tables.experimentCount {
      for slot in tables.experimentSlots[experiment] where wholeSlot[slot] > 0 {
        Self.forEachShare(experiment, slot: slot, eligible: tables.slotVariantMask[slot], tables: tables) {
          tally.experiments[experiment].variants[$0].expectedFirstExposed.add($1, times: wholeSlot[slot])
        }
      }
      for variant in 0..<tables.variantCount(experiment) {
        tally.experiments[experiment].variants[variant].expectedFirstExposed
          .merge(expected[tables.variantStart[experiment] + variant])
      }
    }
  }
}
