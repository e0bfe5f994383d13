/// What the local source has stored for one experiment on a device, as one
/// byte of the device loop's scratch memory: nothing, `inactive`, or `active`
/// on a variant, by its global number (`SimulationPlan.variantNames`). Lab's
/// `LocalDecision` reads it back as a `LocalRecall`.
struct LocalRecord: Equatable, BitwiseCopyable {
  private let code: UInt8

  /// No record: the experiment was never decided, or its record was deleted.
  static let none = LocalRecord(code: 0)
  static let inactive = LocalRecord(code: 1)

  /// Active on a global variant; an experiment has at most 64 (`ScenarioLimits.variants`).
  @inline(__always)
  static func active(_ variant: Int) -> LocalRecord { LocalRecord(code: UInt8(2 + variant)) }

  var isActive: Bool {
    @inline(__always) get { code >= 2 }
  }

  /// The global variant of an active record.
  var variant: Int {
    @inline(__always) get { Int(code) - 2 }
  }
}
