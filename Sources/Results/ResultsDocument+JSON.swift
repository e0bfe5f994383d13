extension ResultsDocument {
  /// results.json: the contract's fields in the contract's order, then the
  /// bench's own additions.
  public var json: OrderedJSON {
    .object([
      ("scenario", .string(scenario)),
      ("seed", .integer(Int(truncatingIfNeeded: seed))),
      ("devices", .integer(devices)),
      ("days", .integer(days)),
      ("replications", .integer(replications)),
      ("experiments", .array(experiments.map(\.json))),
      ("conflicts", .array(conflicts.map(\.json))),
      ("launches", .integer(launches)),
      ("stabilizedDevices", .integer(stabilizedDevices)),
    ])
  }
}

extension ExperimentResult {
  var json: OrderedJSON {
    .object([
      ("name", .string(name)),
      ("source", .string(source)),
      ("baseline", .string(baseline)),
      ("variants", .array(variants.map(\.json))),
      ("transitions", .array(transitions.map(\.json))),
      ("dailyExposures", .object(zip(variants, dailyExposures).map { ($0.name, .array($1.map(OrderedJSON.integer))) })),
    ])
  }
}

extension VariantResult {
  var json: OrderedJSON {
    .object([
      ("name", .string(name)),
      ("weight", .integer(weight)),
      ("exposed", .integer(exposed)),
      ("contaminated", .integer(contaminated)),
      ("metrics", .object(metrics.map { ($0.name, $0.json) })),
    ])
  }
}

extension MetricSummary {
  var json: OrderedJSON {
    var members: [(String, OrderedJSON)] = [("n", .integer(n))]
    if let conversions { members.append(("conversions", .integer(conversions))) }
    members += [("mean", .number(mean)), ("variance", .number(variance)), ("trueMean", .number(trueMean))]
    return .object(members)
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
    ])
  }
}

extension ConflictResult {
  var json: OrderedJSON {
    .object([
      ("key", .string(key)),
      ("experiments", .array(experiments.map(OrderedJSON.string))),
      ("devices", .integer(devices)),
    ])
  }
}
