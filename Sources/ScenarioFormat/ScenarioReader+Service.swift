import Lab

extension ScenarioReader {
  func service(
    _ node: JSONNode, days: Int, naming: NamingPolicy, segments: [String], takenNames: Set<String>
  ) throws(ScenarioError) -> ServicePlan {
    let object = try node.object(fields: ScenarioFields.service)
    let frameworkNode = try object.required("framework")
    let frameworkName = try frameworkNode.string()
    guard let framework = platforms.first(where: { $0.name == frameworkName }) else {
      throw frameworkNode.error("must be one of \(platforms.map { "\"\($0.name)\"" }.joined(separator: ", "))")
    }
    // Left out, each platform's mobile default (`PlatformTraits.keepsDecisionsByDefault`).
    let stickyNode = object.optional("sticky")
    let sticky = try stickyNode?.bool()
    if sticky == true, !framework.canKeepDecisions {
      throw stickyNode!.error(
        "cannot be true for \(framework.name): its mobile SDK keeps no decision on the device, only the last fetch (remove it)")
    }
    let reinstallShare = try object.optional("reinstallShare").map { node throws(ScenarioError) in try probability(node) } ?? 0
    let fetch = try object.optional("fetch").map { node throws(ScenarioError) in try self.fetch(node, segments: segments) }
      ?? .reliable
    var running: [String: [String]] = [:]
    var everVariations = NameUnion(of: "variations", limit: ScenarioLimits.variants.upperBound)
    var started = takenNames
    var changes: [ServiceChange] = []
    for changeNode in try object.required("changes").array(count: ScenarioLimits.changes, of: "changes") {
      let change = try serviceChange(
        changeNode, days: days, naming: naming, framework: framework, running: &running, everVariations: &everVariations,
        started: &started)
      if let previous = changes.last, change.day < previous.day {
        throw ScenarioError(path: "\(changeNode.path).day", message: "must not be before day \(previous.day): list changes in date order")
      }
      changes.append(change)
    }
    var plan = ServicePlan(framework: framework, sticky: sticky, reinstallShare: reinstallShare, fetch: fetch, changes: changes)
    if let accessNode = object.optional("accessBeforeDownload") {
      guard framework.cachesActivationsUntilRestart else {
        throw accessNode.error(
          "is Optimizely's: its activation is cached until the app restarts (seed 001), where \(framework.name)'s SDK reads the configuration it holds when asked (remove it)")
      }
      plan.accessBeforeDownload = try probability(accessNode)
    }
    if let flagsNode = object.optional("flags") {
      guard framework.hasFeatureFlags else {
        throw flagsNode.error("are Optimizely's feature flags (seed 001): \(framework.name)'s are not modelled (remove them)")
      }
      var names = Set(plan.experimentVariations.map(\.name))
      for flagNode in try flagsNode.array(count: ScenarioLimits.flags, of: "flags") {
        let fields = try flagNode.object(fields: ScenarioFields.flag)
        let nameNode = try fields.required("name")
        let name = try nameNode.string()
        guard !name.isEmpty else { throw nameNode.error("must not be empty") }
        if naming == .strict, !NamingConvention.upperCamelCase.accepts(name) {
          throw nameNode.error("should be UpperCamelCase, e.g. '\(NamingConvention.upperCamelCase.suggestion(for: name))', or set \"naming\": \"lenient\"")
        }
        guard names.insert(name).inserted else {
          throw nameNode.error("'\(name)' is already the name of a flag or an experiment of the service: give the flag its own")
        }
        var steps: [ServiceFlag.Step] = []
        let rolloutNode = try fields.required("rollout")
        for stepNode in try rolloutNode.array(count: 1...ScenarioLimits.changes.upperBound, of: "rollout steps") {
          let step = try stepNode.object(fields: ScenarioFields.flagStep)
          let dayNode = try step.required("day")
          let day = try dayNode.integer()
          guard (0..<days).contains(day) else { throw dayNode.error("must lie between 0 and \(days - 1), a day of the run") }
          if let previous = steps.last, day <= previous.day {
            throw dayNode.error("must be after day \(previous.day): list a flag's rollout steps in date order, one a day")
          }
          steps.append(ServiceFlag.Step(day: day, share: try probability(try step.required("share"))))
        }
        plan.flags.append(ServiceFlag(name: name, rollout: steps))
      }
    }
    return plan
  }

  private func serviceChange(
    _ node: JSONNode, days: Int, naming: NamingPolicy, framework: PlatformTraits,
    running: inout [String: [String]], everVariations: inout NameUnion, started: inout Set<String>
  ) throws(ScenarioError) -> ServiceChange {
    let object = try node.object(fields: ScenarioFields.serviceChange)
    let dayNode = try object.required("day")
    let day = try dayNode.integer()
    guard day >= 0, day < days else { throw dayNode.error("must lie between 0 and \(days - 1): the run lasts \(days) days") }
    let actions = ScenarioFields.serviceChange.dropFirst().filter { object.optional($0) != nil }
    guard actions.count == 1, let actionName = actions.first, let actionNode = object.optional(actionName) else {
      throw node.error("must hold \"day\" and exactly one of \(ScenarioFields.serviceChange.dropFirst().joined(separator: ", "))")
    }
    func experiment(_ fields: JSONObject) throws(ScenarioError) -> String {
      let node = try fields.required("experiment")
      let experiment = try node.string()
      guard running[experiment] != nil else {
        throw node.error("'\(experiment)' is not on the service on that day: start it in an earlier change")
      }
      return experiment
    }
    func variation(_ node: JSONNode, of experiment: String) throws(ScenarioError) -> String {
      let variation = try node.string()
      guard running[experiment]!.contains(variation) else {
        throw node.error("'\(variation)' is not a variation of \(experiment) (variations: \(running[experiment]!.joined(separator: ", ")))")
      }
      return variation
    }
    let action: ServiceAction
    switch actionName {
    case "start":
      let experiment = try serviceExperiment(actionNode, naming: naming)
      guard !started.contains(experiment.name) else {
        throw ScenarioError(
          path: "\(actionNode.path).name", message: "'\(experiment.name)' is already an experiment: give each experiment its own name")
      }
      started.insert(experiment.name)
      running[experiment.name] = experiment.variations.map(\.name)
      try everVariations.add(experiment.variations.map(\.name), of: experiment.name, at: "\(actionNode.path).variations")
      action = .start(experiment)
    case "setTraffic":
      let fields = try actionNode.object(fields: ScenarioFields.setTraffic)
      action = .setTraffic(experiment: try experiment(fields), traffic: try probability(fields.required("traffic")))
    case "setWeights":
      let fields = try actionNode.object(fields: ScenarioFields.setWeights)
      let name = try experiment(fields)
      var weights: [String: Double] = [:]
      let weightsNode = try fields.required("weights")
      for (variant, value) in try weightsNode.members() {
        _ = try variation(JSONNode(value: .string(variant), path: value.path), of: name)
        weights[variant] = try weight(value)
      }
      guard weights.values.contains(where: { $0 > 0 }) else { throw weightsNode.error("must give some variation a weight above 0") }
      action = .setWeights(experiment: name, weights: weights)
    case "addVariation":
      let fields = try actionNode.object(fields: ScenarioFields.addVariation)
      let name = try experiment(fields)
      let variationNode = try fields.required("name")
      let variation = try variationNode.string()
      guard !running[name]!.contains(variation) else { throw variationNode.error("'\(variation)' is already a variation of \(name)") }
      try everVariations.add([variation], of: name, at: variationNode.path)
      running[name]!.append(variation)
      action = .addVariation(experiment: name, variation: ServiceVariation(name: variation, weight: try weight(fields.required("weight"))))
    case "removeVariation":
      let fields = try actionNode.object(fields: ScenarioFields.removeVariation)
      let name = try experiment(fields)
      let variationNode = try fields.required("variation")
      let removed = try variation(variationNode, of: name)
      guard running[name]!.count > 1 else { throw variationNode.error("is the last variation of \(name): pause or conclude it instead") }
      running[name]!.removeAll { $0 == removed }
      action = .removeVariation(experiment: name, variation: removed)
    case "setAudience":
      let fields = try actionNode.object(fields: ScenarioFields.setAudience)
      action = .setAudience(experiment: try experiment(fields), audience: try serviceAudience(fields.required("audience")))
    case "pause", "resume", "newBucketVersion":
      let fields = try actionNode.object(fields: ScenarioFields.experimentOnly)
      let name = try experiment(fields)
      switch actionName {
      case "pause": action = .pause(experiment: name)
      case "resume": action = .resume(experiment: name)
      default:
        guard framework.rerandomization != nil else {
          throw actionNode.error(
            "does not apply to \(framework.name), which has no bucket versions, seeds or salts to change (remove the change)")
        }
        action = .newBucketVersion(experiment: name)
      }
    default:
      let fields = try actionNode.object(fields: ScenarioFields.conclude)
      let name = try experiment(fields)
      action = .conclude(experiment: name, winner: try variation(fields.required("winner"), of: name))
    }
    return ServiceChange(day: day, action: action)
  }

  private func serviceExperiment(_ node: JSONNode, naming: NamingPolicy) throws(ScenarioError) -> ServiceExperiment {
    let object = try node.object(fields: ScenarioFields.serviceExperiment)
    let nameNode = try object.required("name")
    let name = try nameNode.string()
    if naming == .strict, !NamingConvention.upperCamelCase.accepts(name) {
      throw nameNode.error("should be UpperCamelCase, e.g. '\(NamingConvention.upperCamelCase.suggestion(for: name))', or set \"naming\": \"lenient\"")
    }
    let variationsNode = try object.required("variations")
    var variations: [ServiceVariation] = []
    for variationNode in try variationsNode.array(count: ScenarioLimits.variants, of: "variations") {
      let fields = try variationNode.object(fields: ScenarioFields.serviceVariation)
      let variationName = try fields.required("name").string()
      guard !variations.contains(where: { $0.name == variationName }) else {
        throw ScenarioError(path: "\(variationNode.path).name", message: "'\(variationName)' is used by another variation of \(name)")
      }
      variations.append(ServiceVariation(
        name: variationName, weight: try fields.optional("weight").map { node throws(ScenarioError) in try weight(node) } ?? 1))
    }
    guard !variations.isEmpty else { throw variationsNode.error("must list at least one variation") }
    guard variations.contains(where: { $0.weight > 0 }) else { throw variationsNode.error("must give some variation a weight above 0") }
    return ServiceExperiment(
      name: name, variations: variations,
      traffic: try object.optional("traffic").map { node throws(ScenarioError) in try probability(node) } ?? 1,
      audience: try object.optional("audience").map { node throws(ScenarioError) in try serviceAudience(node) } ?? ServiceAudience())
  }

  private func serviceAudience(_ node: JSONNode) throws(ScenarioError) -> ServiceAudience {
    let fields = try node.object(fields: ScenarioFields.serviceAudience)
    var audience = ServiceAudience()
    for (attribute, values) in try fields.optional("attributes")?.members() ?? [] {
      audience.attributes[attribute] = try values.array().map { node throws(ScenarioError) in try node.string() }
    }
    if let versionNode = fields.optional("minimumAppVersion") {
      let version = try versionNode.string()
      let parts = version.split(separator: ".", omittingEmptySubsequences: false)
      guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
      else { throw versionNode.error("must be a version of one to three numbers, e.g. \"2.1\"") }
      audience.minimumAppVersion = version
    }
    return audience
  }

  private func weight(_ node: JSONNode) throws(ScenarioError) -> Double {
    let value = try node.double()
    guard value >= 0, value <= 1e6 else { throw node.error("must lie between 0 and 1e6") }
    return value
  }
}
