extension ExperimentDecision {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [("action", .string(actionName))]
    switch action {
    case .ship(let variant): members.append(("variant", .string(variant)))
    case .keepBaseline: break
    case .keepRunning(let devices): members.append(("devicesNeeded", devices.map(OrderedJSON.integer) ?? .null))
    case .doNotTrust(let distrust):
      members += [("reason", .string(distrust.code)), ("why", .string(distrust.description))]
    }
    return .object(members + [
      ("successMetrics", .array(successMetrics.map(OrderedJSON.string))),
      ("guardrails", .object(guardrails.map { ($0.metric, .number($0.margin)) })),
      ("testAlpha", .number(testAlpha)),
      ("testBeta", .number(testBeta)),
      ("deteriorationAlpha", .number(deteriorationAlpha)),
      ("devicesPerVariant", devicesPerVariant.map(OrderedJSON.integer) ?? .null),
      ("smallestArm", .integer(smallestArm)),
      ("variants", .array(variants.map(\.json))),
    ])
  }
}

extension VariantDecision {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [("variant", .string(variant)), ("action", .string(actionName))]
    switch action {
    case .ship(let metric): members.append(("metric", metric.map(OrderedJSON.string) ?? .null))
    case .keepBaseline(.deteriorates(let metric)):
      members += [("reason", .string("deteriorates")), ("metric", .string(metric))]
    case .keepBaseline(.guardrailNotShownSafe(let metric)):
      members += [("reason", .string("guardrail not shown safe")), ("metric", .string(metric))]
    case .keepBaseline(.noSuccess): members.append(("reason", .string("no success at the planned sample")))
    case .keepRunning(let devices, let guardrail):
      members.append(("devicesNeeded", devices.map(OrderedJSON.integer) ?? .null))
      if let guardrail { members.append(("waitingFor", .string(guardrail))) }
    case .doNotTrust(let distrust):
      members += [("reason", .string(distrust.code)), ("why", .string(distrust.description))]
      if readableExcludingContaminated { members.append(("readableExcludingContaminated", .bool(true))) }
    case .retired(let version): members.append(("retiredIn", .string(version)))
    }
    return .object(members + [
      ("oneSidedPValue", .number(oneSidedPValue)),
      ("trueLift", .number(trueLift)),
      ("trulyBetter", trulyBetter.map(OrderedJSON.bool) ?? .null),
    ])
  }
}

extension DecisionRates {
  var json: OrderedJSON {
    .object([
      ("rightShip", rightShip.json), ("wrongShip", wrongShip.json), ("keepBaseline", keepBaseline.json),
      ("keepRunning", keepRunning.json), ("withheld", withheld.json), ("wrongSign", wrongSign.json),
      ("devicesPerVariant", devicesPerVariant.map(OrderedJSON.integer) ?? .null),
      ("smallestArm", .integer(smallestArm)),
      ("knowsTruth", .bool(knowsTruth)),
    ])
  }
}

extension EngineReading {
  var json: OrderedJSON {
    var call: [(String, OrderedJSON)]
    switch self.call {
    case .ship(let variant): call = [("call", .string("ship")), ("variant", .string(variant))]
    case .keepBaseline: call = [("call", .string("keep baseline"))]
    case .keepRunning: call = [("call", .string("keep running"))]
    case .withheld: call = [("call", .string("withheld"))]
    }
    return .object([("engine", .string(engine))] + call + [
      ("marks", .array(marks.map { mark in
        .object([
          ("variant", .string(mark.variant)), ("metric", .string(mark.metric)), ("status", .string(mark.status)),
          ("figure", .string(mark.figureName)), ("value", mark.figure.map(OrderedJSON.number) ?? .null),
        ])
      })),
    ])
  }
}
