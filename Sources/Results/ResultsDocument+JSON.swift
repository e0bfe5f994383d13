extension ResultsDocument {
  /// The version of results.json's layout (docs/results.schema.json): raised
  /// when a field changes meaning or goes away, so that tools can refuse a
  /// file they do not understand.
  public static let formatVersion = 1

  /// results.json: the contract's fields in the contract's order, then the
  /// bench's own additions.
  public var json: OrderedJSON {
    .object([
      ("scenario", .string(scenario)),
      ("seed", seed.map(OrderedJSON.unsignedInteger) ?? .null),
      ("devices", .integer(devices)),
      ("days", .integer(days)),
      ("replications", .integer(replications)),
      ("experiments", .array(experiments.map(\.json))),
      ("conflicts", .array(conflicts.map(\.json))),
      ("launches", .integer(launches)),
      ("stabilizedDevices", .integer(stabilizedDevices)),
      ("calibration", calibration.map(\.json) ?? .null),
      ("delivery", delivery.map(\.json) ?? .null),
    ] + (missingProperties.map { [("missingProperties", .array($0.map(\.json)))] } ?? []) + [
      ("formatVersion", .integer(Self.formatVersion)),
      ("benchVersion", benchVersion.map(OrderedJSON.string) ?? .null),
    ])
  }
}

extension MissingPropertyCount {
  var json: OrderedJSON {
    .object([
      ("metric", .string(metric)), ("event", .string(event)), ("property", .string(property)),
      ("events", .integer(events)), ("withoutProperty", .integer(withoutProperty)),
    ])
  }
}

extension DeliveryResult {
  var json: OrderedJSON {
    func days(_ values: [Int]) -> OrderedJSON { .array(values.map(OrderedJSON.integer)) }
    return .object([
      ("stabilized", days(stabilized)),
      ("overridden", days(overridden)),
      ("failedFetches", days(failedFetches)),
      ("defaultFallbacks", days(defaultFallbacks)),
    ] + (tracking.isEmpty ? [] : [("tracking", .object(tracking.map { ($0.name, days($0.days)) }))])
      + (staleActivations.isEmpty ? [] : [("staleActivations", days(staleActivations))])
      + (flags.isEmpty ? [] : [("flags", .array(flags.map { flag in
        .object([("name", .string(flag.name)), ("on", days(flag.on)), ("withoutFlag", days(flag.unknown))])
      }))]) + [
      ("enrollment", .array(enrollment.map { enrollment in
        .object([
          ("experiment", .string(enrollment.experiment)),
          ("eligible", .integer(enrollment.eligible)),
          ("enrolled", .integer(enrollment.enrolled)),
          ("neverEnrolled", .integer(enrollment.eligible - enrollment.enrolled)),
          ("meanDaysToEnroll", .number(enrollment.meanDaysToEnroll)),
          ("daysToEnroll", days(enrollment.daysToEnroll)),
        ])
      })),
      ("churn", .array(churn.map { churn in
        .object([
          ("experiment", .string(churn.experiment)), ("variant", .string(churn.variant)),
          ("exposed", .integer(churn.exposed)), ("lost", .integer(churn.lost)), ("stuck", .integer(churn.stuck)),
          ("rescued", .integer(churn.rescued)),
        ])
      })),
    ])
  }
}

extension ExperimentResult {
  var json: OrderedJSON {
    var changes: [(String, OrderedJSON)] = self.changes.isEmpty ? [] : [("changes", .array(self.changes.map(\.json)))]
    if let enrollment { changes.append(("enrollment", enrollment.json)) }
    return .object([
      ("name", .string(name)),
      ("source", .string(source)),
      ("baseline", .string(baseline)),
    ] + (baselineReason.map { [("baselineReason", OrderedJSON.string($0))] } ?? []) + [
      ("variants", .array(variants.map(\.json))),
      ("transitions", .array(transitions.map(\.json))),
    ] + changes + [
      ("mixedDevices", .integer(mixedDevices)),
      ("srm", srm.map { $0.json(variants: variants.map(\.name)) } ?? .null),
      ("decision", decision?.json ?? .null),
    ] + (engineReadings.isEmpty ? [] : [("engineReadings", .array(engineReadings.map(\.json)))]) + [
      ("analysis", .array(analysis.map(\.json))),
      ("dailyNewExposures", .object(zip(variants, dailyNewExposures).map { ($0.name, .array($1.map(OrderedJSON.integer))) })),
    ])
  }
}

extension EnrollmentRuleResult {
  var json: OrderedJSON {
    .object([
      ("policy", .string(policy)),
      ("enrolled", .object(variants.map { ($0.name, .integer($0.exposed)) })),
      ("shown", .object(zip(variants, shown).map { ($0.name, .integer($1)) })),
      ("metrics", .object(variants.map { variant in (variant.name, .object(variant.metrics.map { ($0.name, $0.json) })) })),
      ("conditionMet", .array(conditionMet.map(OrderedJSON.integer))),
      ("conditionLapsed", .array(conditionLapsed.map(OrderedJSON.integer))),
      ("handshakes", .object(handshakes.map { ($0.outcome, .array($0.days.map(OrderedJSON.integer))) })),
    ] + (restoredUsers.isEmpty ? [] : [
      ("userSwitches", .object([
        ("restored", .array(restoredUsers.map(OrderedJSON.integer))), ("newUser", .array(newUsers.map(OrderedJSON.integer))),
      ])),
    ]) + [
      ("analysis", .array(analysis.map(\.json))),
      ("neverEnrolled", .integer(neverEnrolled?.exposed ?? 0)),
      ("segments", .object(segments.map { ($0.name, .object([("active", .integer($0.active)), ("enrolled", .integer($0.enrolled))])) })),
      ("neverEnrolledAsBaselineAnalysis", .array(neverEnrolledAsBaselineAnalysis.map(\.json))),
    ])
  }
}

extension ServiceChangeResult {
  var json: OrderedJSON {
    .object(
      [
        ("day", .integer(day)), ("change", .string(change)), ("devices", .integer(devices)), ("kept", .integer(kept)),
        ("moved", .integer(moved)), ("left", .integer(left)), ("entered", .integer(entered)),
      ]
        + (values.map { values in
          [
            ("values", OrderedJSON.object([
              ("took", .integer(values.took)), ("overridden", .integer(values.overridden)), ("keptOld", .integer(values.keptOld)),
            ]))
          ]
        } ?? []))
  }
}

extension VariantResult {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("name", .string(name)),
      ("weight", weight.map(OrderedJSON.integer) ?? .null),
      ("exposed", .integer(exposed)),
      ("contaminated", .integer(contaminated)),
      ("metrics", .object(metrics.map { ($0.name, $0.json) })),
      ("firstExposed", .integer(firstExposed)),
      ("expectedFirstExposed", .number(expectedFirstExposed)),
    ]
    if !ratios.isEmpty { members.append(("ratios", .object(ratios.map { ($0.name, $0.json) }))) }
    if !winsorized.isEmpty { members.append(("winsorized", .object(winsorized.map { ($0.summary.name, $0.json) }))) }
    if let retiredIn { members.append(("retiredIn", .string(retiredIn))) }
    return .object(members)
  }
}

extension RatioSummary {
  var json: OrderedJSON {
    .object([
      ("n", .integer(n)), ("ratio", .number(ratio)), ("numeratorMean", .number(numeratorMean)),
      ("numeratorVariance", .number(numeratorVariance)), ("denominatorMean", .number(denominatorMean)),
      ("denominatorVariance", .number(denominatorVariance)), ("covariance", .number(covariance)),
      ("trueLift", .number(trueLift)),
    ])
  }
}

extension WinsorizedSummary {
  var json: OrderedJSON {
    .object(
      [("metric", .string(metric)), ("percentile", .number(percentile)), ("cap", .number(cap)), ("capped", .integer(capped))]
        + summary.jsonMembers)
  }
}

extension MetricSummary {
  var json: OrderedJSON { .object(jsonMembers) }

  /// The summary's fields, which a winsorized summary follows its own with.
  var jsonMembers: [(String, OrderedJSON)] {
    var members: [(String, OrderedJSON)] = [("n", .integer(n))]
    if let conversions { members.append(("conversions", .integer(conversions))) }
    members += [
      ("mean", .number(mean)), ("variance", .number(variance)), ("trueMean", .number(trueMean)),
      ("trueLift", .number(trueLift)),
    ]
    if !isConversion { members.append(("skewness", .number(skewness))) }
    if let covariate {
      members.append((
        "covariate",
        .object([
          ("mean", .number(covariate.mean)), ("variance", .number(covariate.variance)),
          ("covariance", .number(covariate.covariance)),
        ])
      ))
    }
    return members
  }
}

extension TransitionResult {
  var json: OrderedJSON {
    .object([
      ("fromVersion", .string(fromVersion)),
      ("toVersion", .string(toVersion)),
      ("kept", .integer(kept)),
      ("reassigned", .integer(reassigned)),
      ("deactivated", .integer(deactivated)),
      ("activated", .integer(activated)),
      ("devices", .integer(devices)),
      ("returned", .integer(returned)),
      ("returnedOnAnotherVariant", .integer(returnedOnAnotherVariant)),
    ])
  }
}

extension ConflictResult {
  var json: OrderedJSON {
    .object([
      ("key", .string(key)),
      ("experiments", .array(experiments.map(OrderedJSON.string))),
      ("devices", .integer(devices)),
      ("firstDay", firstDay.map(OrderedJSON.integer) ?? .null),
      ("lastDay", lastDay.map(OrderedJSON.integer) ?? .null),
      ("served", .array(served.map { served in
        .object([
          ("experiment", .string(served.experiment)), ("variant", .string(served.variant)),
          ("devices", .integer(served.devices)),
        ])
      })),
    ])
  }
}

extension SRMResult {
  func json(variants: [String]) -> OrderedJSON {
    .object([
      ("expected", .object(zip(variants, expected).map { ($0, .number($1)) })),
      ("statistic", .number(statistic)),
      ("df", .number(degreesOfFreedom)),
      ("pValue", .number(pValue)),
      ("mismatch", .bool(isMismatch)),
    ])
  }
}

extension TestSummary {
  var json: OrderedJSON {
    .object([
      ("test", .string(test)), ("statistic", .number(statistic)), ("df", .number(degreesOfFreedom)),
      ("pValue", .number(pValue)),
    ])
  }
}

extension MetricAnalysis {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("metric", .string(metric)),
      ("kind", .string(kind)),
      ("omnibus", omnibus.json),
      ("comparisons", .array(comparisons.map(\.json))),
      ("winner", winner.map(OrderedJSON.string) ?? .null),
      ("trueWinner", trueWinner.map(OrderedJSON.string) ?? .null),
      ("verdict", .string(verdictText)),
      ("recommendation", recommendation.json),
    ]
    if knowsTruth { members.append(("winnerIsTrue", .bool(winner == trueWinner))) }
    if let quantile { members.insert(("quantile", .number(quantile)), at: 2) }
    if let winsorize { members.insert(("percentile", .number(winsorize)), at: 2) }
    if isRatio || quantile != nil {
      // A ratio's or quantile's per variant, which the variants' summaries do not hold.
      members.append((
        "estimates",
        .array(estimates.map { estimate in
          estimate.map { .object([("value", .number($0.value)), ("lower", .number($0.lower)), ("upper", .number($0.upper))]) }
            ?? .null
        })))
    }
    if let power {
      members.append((
        "power",
        .object([
          ("requiredPerVariant", power.requiredPerVariant.map(OrderedJSON.integer) ?? .null),
          ("smallestVariant", .integer(power.smallestVariant)),
          ("achieved", .number(power.achieved)),
        ] + {
          guard case .difference(let difference) = power.target else { return [] }
          return [("minimumDetectableDifference", .number(difference))]
        }())
      ))
    }
    return .object(members)
  }

  /// "winner", "no winner", or "not trustworthy: <why>".
  public var verdictText: String {
    switch verdict {
    case .winner: return "winner"
    case .noWinner: return "no winner"
    case .notTrustworthy(let why): return "not trustworthy: \(why)"
    }
  }
}

extension Distrust: CustomStringConvertible {
  /// The reason as one clause, e.g. "contamination: 97.7% of Dracula's counted devices (5697) were shown another variant".
  public var description: String {
    switch self {
    case .sampleRatioMismatch(let pValue):
      return "sample ratio mismatch (p = \(pValue)): first exposures do not follow the configured split"
    case .contamination(let variant, let share, let devices):
      return "contamination: \(share * 100)% of \(variant)'s counted devices (\(devices)) were shown another variant too"
    case .peeking(let firstDay):
      return "peeking: the final p-value is below alpha but no daily look crossed its O'Brien-Fleming boundary"
        + (firstDay.map { "; a fixed-horizon test read daily was first significant on day \($0)" } ?? "")
    case .tooFewDevices(let variant, let devices, let minimum):
      return "too few devices: \(variant) has \(devices), fewer than the \(minimum) per variant a test needs "
        + "(analysis.minimumDevicesPerVariant)"
    case .undefinedTest(let variant, let test):
      return "undefined test: \(test) of \(variant) against the baseline is undefined (both have constant values, variance 0)"
    }
  }

  /// The reason's name in results.json.
  var code: String {
    switch self {
    case .sampleRatioMismatch: "sample ratio mismatch"
    case .contamination: "contamination"
    case .peeking: "peeking"
    case .tooFewDevices: "too few devices"
    case .undefinedTest: "undefined test"
    }
  }
}

extension Decision {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [("action", .string(name))]
    switch self {
    case .ship: break
    case .doNotShip(.worse): members.append(("reason", .string("worse")))
    case .doNotShip(.plannedEffectRuledOut(let upper, let planned)):
      members += [("reason", .string("planned effect ruled out")), ("ciHigh", .number(upper)), ("plannedLift", .number(planned))]
    case .doNotShip(.guardrail(let metric)):
      members += [("reason", .string("guardrail")), ("guardrail", .string(metric))]
    case .inconclusive(let devices):
      members.append(("devicesNeeded", devices.map(OrderedJSON.integer) ?? .null))
    case .notTrustworthy(let distrust):
      members += [("reason", .string(distrust.code)), ("why", .string(distrust.description))]
      switch distrust {
      case .contamination(let variant, let share, let devices):
        members += [("arm", .string(variant)), ("share", .number(share)), ("devices", .integer(devices))]
      case .peeking(let firstDay): members.append(("firstSignificantDay", firstDay.map(OrderedJSON.integer) ?? .null))
      default: break
      }
    }
    return .object(members)
  }
}

extension Recommendation {
  var json: OrderedJSON {
    switch self {
    case .ship(let variant): .object([("action", .string("ship")), ("variant", .string(variant))])
    case .keepBaseline: .object([("action", .string("keep baseline"))])
    case .keepRunning(let devices):
      .object([("action", .string("keep running")), ("devicesNeeded", devices.map(OrderedJSON.integer) ?? .null)])
    case .doNotTrust(let distrust):
      .object([("action", .string("do not trust")), ("reason", .string(distrust.code)), ("why", .string(distrust.description))])
    }
  }
}

extension Comparison {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("variant", .string(variant)),
      ("vs", .string(baseline)),
      ("test", .string(test.test)),
      ("statistic", .number(test.statistic)),
      ("pValue", .number(test.pValue)),
      ("adjustedPValue", .number(adjustedPValue)),
      ("lift", .number(lift)),
      ("ciLow", .number(liftInterval?.lower)),
      ("ciHigh", .number(liftInterval?.upper)),
      ("liftUnbounded", .bool(liftIsUnbounded)),
      ("meanDifference", .number(meanDifference)),
      ("probabilityToBeatBaseline", .number(probabilityToBeatBaseline)),
      ("df", .number(test.degreesOfFreedom)),
      ("difference", .number(difference?.value)),
      ("differenceLow", .number(difference?.lower)),
      ("differenceHigh", .number(difference?.upper)),
      ("expectedLoss", .number(expectedLoss)),
      ("trueLift", .number(trueLift)),
      ("standardError", .number(standardError)),
      ("decision", decision.json),
    ]
    if let skewWarning {
      members.append((
        "skewWarning",
        .object([
          ("variant", .string(skewWarning.variant)), ("skewness", .number(skewWarning.skewness)),
          ("devices", .integer(skewWarning.devices)), ("needed", .integer(skewWarning.needed)),
        ])
      ))
    }
    if let designErrors {
      members.append((
        "designErrors",
        .object([
          ("power", .number(designErrors.power)), ("typeS", .number(designErrors.typeS)),
          ("exaggeration", .number(designErrors.exaggeration)),
        ])
      ))
    }
    if let nonInferiority {
      members.append(("nonInferiority", .object([
        ("margin", .number(nonInferiority.margin)), ("test", .string(nonInferiority.test.test)),
        ("statistic", .number(nonInferiority.test.statistic)), ("df", .number(nonInferiority.test.degreesOfFreedom)),
        ("pValue", .number(nonInferiority.test.pValue)), ("safe", .bool(nonInferiority.isSafe)),
      ])))
    }
    if tooFewDevices { members.append(("tooFewDevices", .bool(true))) }
    if let adjustment = covariateAdjustment {
      members.append((
        "cuped",
        .object([
          ("theta", .number(adjustment.theta)), ("varianceReduction", .number(adjustment.varianceReduction)),
          ("unadjustedTest", .string(adjustment.unadjusted.test)),
          ("unadjustedStatistic", .number(adjustment.unadjusted.statistic)),
          ("unadjustedPValue", .number(adjustment.unadjusted.pValue)),
          ("unadjustedLift", .number(adjustment.unadjustedLift)),
          ("unadjustedCiLow", .number(adjustment.unadjustedLiftInterval?.lower)),
          ("unadjustedCiHigh", .number(adjustment.unadjustedLiftInterval?.upper)),
        ])
      ))
    }
    if let rankTest {
      members.append(("mannWhitney", .object([("statistic", .number(rankTest.statistic)), ("pValue", .number(rankTest.pValue))])))
    }
    if !looks.isEmpty {
      members.append((
        "looks",
        .array(looks.map {
          .object([
            ("day", .integer($0.day)), ("pValue", .number($0.pValue)), ("alwaysValidPValue", .number($0.alwaysValidPValue)),
            ("obrienFlemingAlpha", .number($0.obrienFlemingAlpha)), ("pocockAlpha", .number($0.pocockAlpha)),
          ])
        })
      ))
    }
    return .object(members)
  }
}

extension Calibration {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [
      ("replications", .integer(replications)),
      ("experiments", .array(experiments.map { experiment in
        .object([
          ("name", .string(experiment.name)),
          ("decision", experiment.decision?.json ?? .null),
          ("metrics", .array(experiment.metrics.map(\.json))),
        ])
      })),
    ]
    if !adoptionEnds.isEmpty {
      members.append(("adoptionEnds", .array(adoptionEnds.map { end in
        .object([
          ("end", .string(end.end)),
          ("experiments", .array(end.experiments.compactMap { experiment in
            experiment.decision.map { .object([("name", .string(experiment.name)), ("decision", $0.json)]) }
          })),
        ])
      })))
    }
    return .object(members)
  }
}

extension MetricCalibration {
  var json: OrderedJSON {
    .object([
      ("metric", .string(metric)),
      ("winnerRates", .object(winnerRates.map { ($0.variant, .number($0.rate)) })),
      ("noWinnerRate", .number(noWinnerRate)),
      ("notTrustworthyRate", .number(notTrustworthyRate)),
      ("trueWinner", trueWinner.map(OrderedJSON.string) ?? .null),
      ("correctRate", .number(correct.rate)),
      ("correct", correct.json),
      ("wrong", wrong.json),
      ("abstained", abstained.json),
      ("decisions", decisions.map { decisions in
        .object([
          ("rightShip", decisions.rightShip.json), ("wrongShip", decisions.wrongShip.json),
          ("keepBaseline", decisions.keepBaseline.json), ("inconclusive", decisions.inconclusive.json),
          ("withheld", decisions.withheld.json), ("wrongSign", decisions.wrongSign.json),
        ])
      } ?? .null),
      ("comparisons", .array(comparisons.map { comparison in
        .object([
          ("variant", .string(comparison.variant)),
          ("trueLift", .number(comparison.trueLift)),
          ("significantRate", .number(comparison.significantRate)),
          ("falsePositiveRate", comparison.trueLift == 0 ? .number(comparison.significantRate) : .null),
          ("power", comparison.trueLift.map { $0 != 0 } == true ? .number(comparison.significantRate) : .null),
          ("coverage", .number(comparison.coverage)),
          ("meanLift", .number(comparison.meanLift)),
          ("peekingSignificantRate", .number(comparison.peekingSignificantRate)),
          ("alwaysValidSignificantRate", .number(comparison.alwaysValidSignificantRate)),
          ("obrienFlemingSignificantRate", .number(comparison.obrienFlemingSignificantRate)),
          ("pocockSignificantRate", .number(comparison.pocockSignificantRate)),
          ("safeRate", .number(comparison.safeRate)),
          ("unadjustedSignificantRate", .number(comparison.unadjustedSignificantRate)),
          ("skewWarningRate", .number(comparison.skewWarningRate)),
          ("coverageWhenWarned", .number(comparison.coverageWhenWarned)),
          ("coverageWhenNotWarned", .number(comparison.coverageWhenNotWarned)),
        ])
      })),
    ])
  }
}

extension Share {
  var json: OrderedJSON {
    .object([
      ("count", .integer(count)), ("of", .integer(of)), ("rate", .number(rate)), ("ciLow", .number(lower)),
      ("ciHigh", .number(upper)),
    ])
  }
}
