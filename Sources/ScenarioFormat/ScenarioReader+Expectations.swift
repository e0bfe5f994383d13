extension ScenarioReader {
  /// The plan's `expect` list: each names what it measures (`that`), whose,
  /// and one bound, as strictly as the rest of the scenario.
  func expectations(
    _ node: JSONNode, catalog: ExperimentCatalog, versions: [AppVersion], service: ServicePlan?,
    enrollment: [String: EnrollmentRule]
  ) throws(ScenarioError) -> [PlanExpectation] {
    try node.array(count: ScenarioLimits.expectations, of: "expectations").map { node throws(ScenarioError) in
      try expectation(node, catalog: catalog, versions: versions, service: service, enrollment: enrollment)
    }
  }

  private func expectation(
    _ node: JSONNode, catalog: ExperimentCatalog, versions: [AppVersion], service: ServicePlan?,
    enrollment: [String: EnrollmentRule]
  ) throws(ScenarioError) -> PlanExpectation {
    let object = try node.object(fields: ScenarioFields.expectation)
    let thatNode = try object.required("that")
    let that = try thatNode.string()
    let measures = [
      "reshuffled", "mixed", "moved", "rightShip", "wrongShip", "neverEnrolled", "keyClashes", "sampleRatioMismatch", "rule",
    ]
    guard measures.contains(that) else {
      throw thatNode.error("must be one of \(measures.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    // Each measure takes its own fields; any other is a mistake worth naming.
    let fields: [String]
    switch that {
    case "reshuffled": fields = ["experiment", "version", "atMost"]
    case "mixed", "moved", "wrongShip", "neverEnrolled": fields = ["experiment", "atMost"]
    case "rightShip": fields = ["experiment", "atLeast"]
    case "keyClashes": fields = ["key", "atMost"]
    case "sampleRatioMismatch": fields = ["experiment", "fires"]
    default: fields = ["rule", "fires"]
    }
    for (name, field) in try node.members() where name != "that" && !fields.contains(name) {
      throw field.error("does not go with \"that\": \"\(that)\", which takes \(fields.map { "\"\($0)\"" }.joined(separator: ", "))")
    }
    func experiment() throws(ScenarioError) -> String {
      let experimentNode = try object.required("experiment")
      let name = try experimentNode.string()
      try catalog.requireExperiment(name, at: experimentNode)
      return name
    }
    func share(_ name: String) throws(ScenarioError) -> Double {
      let shareNode = try object.required(name)
      let value = try shareNode.double()
      guard (0...1).contains(value) else { throw shareNode.error("must lie between 0 and 1, a share: e.g. 0.05 for 5%") }
      return value
    }
    func fires() throws(ScenarioError) -> Bound {
      let firesNode = try object.required("fires")
      guard case .bool(let fires) = firesNode.value else { throw firesNode.error("must be true or false") }
      return fires ? .atLeast(1) : .atMost(0)
    }
    typealias Bound = PlanExpectation.Bound
    let measure: PlanExpectation.Measure
    let bound: Bound
    switch that {
    case "reshuffled":
      let name = try experiment()
      guard versions.contains(where: { version in version.experiments.contains { $0.name == name } }) else {
        throw (try object.required("experiment")).error("'\(name)' is not a local experiment: only app versions reshuffle one")
      }
      var version: String?
      if let versionNode = object.optional("version") {
        let text = try versionNode.string()
        guard let index = versions.firstIndex(where: { $0.version == text }), index > 0 else {
          throw versionNode.error(
            "must be a version after the first, which devices upgrade into (versions: \(versions.dropFirst().map(\.version).joined(separator: ", ")))")
        }
        version = text
      }
      measure = .reshuffled(experiment: name, version: version)
      bound = .atMost(try share("atMost"))
    case "mixed":
      measure = .mixed(experiment: try experiment())
      bound = .atMost(try share("atMost"))
    case "moved":
      let name = try experiment()
      guard service?.experimentVariations.contains(where: { $0.name == name }) ?? false else {
        throw (try object.required("experiment")).error("'\(name)' is not an experiment of the service: only a dashboard change moves one")
      }
      measure = .moved(experiment: name)
      bound = .atMost(try share("atMost"))
    case "rightShip":
      measure = .rightShip(experiment: try experiment())
      bound = .atLeast(try share("atLeast"))
    case "wrongShip":
      measure = .wrongShip(experiment: try experiment())
      bound = .atMost(try share("atMost"))
    case "neverEnrolled":
      let name = try experiment()
      guard enrollment[name] != nil else {
        throw (try object.required("experiment")).error(
          "'\(name)' has no enrollment rule: without one every device shown the experiment enrolls (docs/scenarios.md, enrollment)")
      }
      measure = .neverEnrolled(experiment: name)
      bound = .atMost(try share("atMost"))
    case "keyClashes":
      let atMostNode = try object.required("atMost")
      measure = .keyClashes(key: try object.optional("key")?.string())
      bound = .atMost(Double(try atMostNode.integer(in: 0...ScenarioLimits.devices.upperBound)))
    case "sampleRatioMismatch":
      measure = .sampleRatioMismatch(experiment: try experiment())
      bound = try fires()
    default:
      let ruleNode = try object.required("rule")
      let rule = try ruleNode.string()
      guard PlanExpectation.rules.contains(rule) else {
        throw ruleNode.error("must name a rule whose devices a run counts: \(PlanExpectation.rules.map { "\"\($0)\"" }.joined(separator: ", "))")
      }
      measure = .rule(rule)
      bound = try fires()
    }
    return PlanExpectation(measure: measure, bound: bound, path: node.path)
  }
}
