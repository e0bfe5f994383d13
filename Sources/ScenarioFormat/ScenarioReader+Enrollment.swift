import Enrollment

extension ScenarioReader {
  func enrollment(
    _ node: JSONNode, catalog: ExperimentCatalog, segments: [String]
  ) throws(ScenarioError) -> [String: EnrollmentRule] {
    var rules: [String: EnrollmentRule] = [:]
    for (experiment, ruleNode) in try node.members() {
      try catalog.requireExperiment(experiment, at: ruleNode)
      let object = try ruleNode.object(fields: ScenarioFields.enrollmentRule)
      var rule = EnrollmentRule(policy: .run)
      if let policyNode = object.optional("policy") {
        guard let policy = EnrollmentPolicy(rawValue: try policyNode.string()) else {
          throw policyNode.error(#"must be "allocation", "check" or "run""#)
        }
        rule.policy = policy
      }
      if let check = object.optional("checkProbability") { rule.checkProbability = try probability(check) }
      if let conditionNode = object.optional("precondition") {
        let fields = try conditionNode.object(fields: ScenarioFields.enrollmentCondition)
        if let countNode = fields.optional("events") {
          let count = try countNode.integer()
          guard (1...1_000_000).contains(count) else { throw countNode.error("must lie between 1 and 1000000") }
          let perLaunchNode = try fields.required("eventsPerLaunch")
          let perLaunch = try perLaunchNode.double()
          guard perLaunch > 0, perLaunch <= 30 else { throw perLaunchNode.error("must be greater than 0 and at most 30") }
          rule.precondition = .events(count: count, perLaunch: perLaunch)
        } else if let chanceNode = fields.optional("launchChance") {
          rule.precondition = .launchChance(try probability(chanceNode, allowZero: false))
        } else {
          throw conditionNode.error(#"must hold "events" with "eventsPerLaunch", or "launchChance""#)
        }
        if let lapseNode = fields.optional("lapseChance") { rule.lapseChance = try probability(lapseNode) }
      }
      if let handshakeNode = object.optional("handshake") { rule.handshake = try handshake(handshakeNode, segments: segments) }
      rules[experiment] = rule
    }
    return rules
  }

  private func handshake(_ node: JSONNode, segments: [String]) throws(ScenarioError) -> HandshakeModel {
    let fields = try node.object(fields: ScenarioFields.handshake)
    func seconds(_ node: JSONNode) throws(ScenarioError) -> Double {
      let seconds = try node.double()
      guard seconds > 0, seconds <= 86_400 else { throw node.error("must be greater than 0 and at most 86400 seconds") }
      return seconds
    }
    func seconds(_ name: String, default value: Double) throws(ScenarioError) -> Double {
      guard let node = fields.optional(name) else { return value }
      return try seconds(node)
    }
    func chance(_ name: String, default value: Double) throws(ScenarioError) -> Double {
      guard let node = fields.optional(name) else { return value }
      return try probability(node)
    }
    var settings = DevToDevHandshake.Settings()
    if let waiting = fields.optional("remoteConfigWaiting"), waiting.value != .null {
      settings.remoteConfigWaiting = try seconds("remoteConfigWaiting", default: 0)
    }
    settings.groupDefinitionWaiting = try seconds("groupDefinitionWaiting", default: 10)
    let sigmaNode = fields.optional("latencySigma")
    let sigma = try sigmaNode?.double() ?? 0.5
    if let sigmaNode, !(0...3).contains(sigma) { throw sigmaNode.error("must lie between 0 and 3") }
    var model = HandshakeModel(
      settings: settings, configurationSeconds: try seconds("configurationSeconds", default: 1),
      groupSeconds: try seconds("groupSeconds", default: 1), offerSeconds: try seconds("offerSeconds", default: 1),
      latencySigma: sigma,
      backgroundChance: try chance("backgroundChance", default: 0),
      applyChance: try chance("applyChance", default: 1))
    model.emptyConfigurationChance = try chance("emptyConfigurationChance", default: 0)
    model.refusalChance = try chance("refusalChance", default: 0)
    model.userChangeChance = try chance("userChangeChance", default: 0)
    if let sharedNode = fields.optional("sharedDevices") {
      let shared = try sharedNode.object(fields: ScenarioFields.sharedDevices)
      model.sharedDevices = HandshakeModel.SharedDevices(
        share: try probability(try shared.required("share")), switchChance: try probability(try shared.required("switchChance")))
    }
    if let when = fields.optional("waitsSet") {
      switch try when.string() {
      case "beforeInitialization": model.waitsSetBeforeInitialization = true
      case "afterInitialization": model.waitsSetBeforeInitialization = false
      default: throw when.error(#"must be "beforeInitialization" or "afterInitialization""#)
      }
    }
    for (segment, segmentNode) in try fields.optional("segments")?.members() ?? [] {
      try requireSegment(segment, among: segments, at: segmentNode)
      let members = try segmentNode.object(fields: ScenarioFields.segmentHandshake)
      model.segments[segment] = HandshakeModel.SegmentHandshake(
        backgroundChance: try members.optional("backgroundChance").map { node throws(ScenarioError) in try probability(node) },
        configurationSeconds: try members.optional("configurationSeconds").map { node throws(ScenarioError) in try seconds(node) })
    }
    return model
  }
}
