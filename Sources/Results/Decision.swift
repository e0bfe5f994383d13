/// Why a variant should not ship although its comparison can be trusted.
public enum Rejection: Hashable, Sendable {
  /// It is significantly worse than the baseline.
  case worse
  /// Not significant, and its lift interval ends below the planned lift:
  /// the effect worth shipping for is ruled out.
  case plannedEffectRuledOut(upper: Double, planned: Double)
  /// It wins on this metric but is not shown safe on a guardrail metric.
  case guardrail(metric: String)
}

/// What to do with one variant, against the baseline, on one metric.
public enum Decision: Hashable, Sendable {
  case ship
  case doNotShip(Rejection)
  /// Not significant and the planned effect not ruled out: more devices
  /// could decide it. `devicesNeeded`: how many more per variant the power
  /// calculation asks for; `nil` when the planned sample is already reached
  /// or the calculation is not computable.
  case inconclusive(devicesNeeded: Int?)
  case notTrustworthy(Distrust)

  /// The decision's name in results.json and the report.
  public var name: String {
    switch self {
    case .ship: "ship"
    case .doNotShip: "do not ship"
    case .inconclusive: "inconclusive"
    case .notTrustworthy: "not trustworthy"
    }
  }
}
