import Results
import Statistics

/// What one way of deciding an experiment did over the replications so far,
/// judged by the truth the bench's decision computes for each variant:
/// `CalibrationSummary` counts the bench's decision with it and
/// `EngineCalibrationSummary` each engine's, so that right and wrong mean the
/// same for all of them.
struct DecisionOutcomes: Sendable {
  var rightShip = 0, wrongShip = 0, keepBaseline = 0, keepRunning = 0, withheld = 0, wrongSign = 0
  var smallestArmSum = 0.0
  var knowsTruth = true

  /// Counts `call`, made on an experiment whose decision (the truth's holder) is `decision`.
  mutating func add(_ call: EngineCall, decision: ExperimentDecision?) {
    switch call {
    case .ship(let variant):
      let shipped = decision?.variants.first { $0.variant == variant }
      if shipped?.trulyBetter == nil { knowsTruth = false }
      if shipped?.trulyBetter == true { rightShip += 1 } else { wrongShip += 1 }
      if let lift = shipped?.trueLift, lift < -1e-12 { wrongSign += 1 }
    case .keepBaseline: keepBaseline += 1
    case .keepRunning: keepRunning += 1
    case .withheld: withheld += 1
    }
    guard let decision else {
      knowsTruth = false
      return
    }
    if decision.variants.contains(where: { $0.trulyBetter == nil }) { knowsTruth = false }
    smallestArmSum += Double(decision.smallestArm)
  }

  /// The shares of `replications`, with the decision's mean sample size where it has one.
  func rates(of replications: Int, devicesPerVariant: Int? = nil) -> DecisionRates {
    DecisionRates(
      rightShip: .wilson(rightShip, of: replications), wrongShip: .wilson(wrongShip, of: replications),
      keepBaseline: .wilson(keepBaseline, of: replications), keepRunning: .wilson(keepRunning, of: replications),
      withheld: .wilson(withheld, of: replications), wrongSign: .wilson(wrongSign, of: replications),
      devicesPerVariant: devicesPerVariant,
      smallestArm: replications > 0 ? Int((smallestArmSum / Double(replications)).rounded()) : 0, knowsTruth: knowsTruth)
  }
}

extension Share {
  /// `count` of `replications` with its 95% Wilson interval.
  static func wilson(_ count: Int, of replications: Int) -> Share {
    let interval = ProportionTests.wilsonInterval(successes: count, trials: replications, confidence: 0.95)
    return Share(count: count, of: replications, lower: interval?.lower, upper: interval?.upper)
  }
}
