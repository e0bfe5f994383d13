import JSONDocument
import Lab

extension ScenarioReader {
  func remote(
    _ node: JSONNode, days: Int, naming: NamingPolicy, segments: [String], versions: [AppVersion]
  ) throws(ScenarioError) -> RemotePlan {
    let object = try node.object(fields: ScenarioFields.remote)
    let defaults = try object.optional("defaults").map { node throws(ScenarioError) in try assignments(node) } ?? [:]
    let fetch = try object.optional("fetch").map { node throws(ScenarioError) in try self.fetch(node, segments: segments) }
      ?? .reliable
    let localNames = Set(versions.flatMap(\.experiments).map(\.name))
    var running: [String: RunningExperiment] = [:]
    var ever = (
      variants: NameUnion(of: "variants", limit: ScenarioLimits.variants.upperBound),
      keys: NameUnion(of: "keys", limit: ScenarioLimits.keys.upperBound))
    var changes: [RemoteChange] = []
    for changeNode in try object.required("changes").array(count: ScenarioLimits.changes, of: "changes") {
      let change = try self.change(
        changeNode, days: days, naming: naming, running: &running, ever: &ever, localNames: localNames)
      if let previous = changes.last, change.day < previous.day {
        throw ScenarioError(path: "\(changeNode.path).day", message: "must not be before day \(previous.day): list changes in date order")
      }
      changes.append(change)
    }
    var plan = RemotePlan(defaults: defaults, fetch: fetch, changes: changes)
    if let valuesNode = object.optional("values") {
      guard let reading = RemotePlan.ValueReading(rawValue: try valuesNode.string()) else {
        throw valuesNode.error(#"must be "lab" or "koma""#)
      }
      plan.values = reading
    }
    if plan.values == .koma {
      for (index, change) in changes.enumerated() {
        guard case .add(_, let keys) = change.action, let missing = keys.first(where: { defaults[$0] == nil }) else { continue }
        throw ScenarioError(
          path: "remote.changes[\(index)].add.keys",
          message: "'\(missing)' has no default in remote.defaults: KOMA values need an in-app default for every key")
      }
    }
    for name in ["customValues", "debugValues"] {
      guard let localNode = object.optional(name) else { continue }
      guard plan.values == .koma else {
        throw localNode.error(#"goes with "values": "koma": custom and debug values are KOMA's"#)
      }
      let fields = try localNode.object(fields: ScenarioFields.localValues)
      let share = try probability(try fields.required("share"))
      let valuesNode = try fields.required("values")
      let values = try assignments(valuesNode)
      guard !values.isEmpty else { throw valuesNode.error("must give at least one key its value") }
      for (key, keyNode) in try valuesNode.members() where defaults[key] == nil {
        throw keyNode.error("'\(key)' has no default in remote.defaults: custom and debug values stand in for a KOMA key's")
      }
      let local = RemotePlan.LocalValues(share: share, values: values)
      if name == "customValues" { plan.customValues = local } else { plan.debugValues = local }
    }
    return plan
  }

  func fetch(_ node: JSONNode, segments: [String]) throws(ScenarioError) -> FetchModel {
    let object = try node.object(fields: ScenarioFields.fetch)
    var model = FetchModel.reliable
    if let failure = object.optional("failureRate") { model.failureRate = try probability(failure) }
    if let latency = object.optional("medianLatencySeconds") { model.medianLatencySeconds = try positiveNumber(latency) }
    if let sigma = object.optional("latencySigma") {
      model.latencySigma = try sigma.double()
      guard model.latencySigma >= 0, model.latencySigma <= 3 else { throw sigma.error("must lie between 0 and 3") }
    }
    if let timeout = object.optional("timeoutSeconds") { model.timeoutSeconds = try positiveNumber(timeout) }
    for (segment, segmentNode) in try object.optional("segments")?.members() ?? [] {
      try requireSegment(segment, among: segments, at: segmentNode)
      let fields = try segmentNode.object(fields: ScenarioFields.segmentFetch)
      model.segments[segment] = FetchModel.SegmentFetch(
        failureRate: try fields.optional("failureRate").map { node throws(ScenarioError) in try probability(node) },
        medianLatencySeconds: try fields.optional("medianLatencySeconds").map { node throws(ScenarioError) in
          try positiveNumber(node)
        })
    }
    return model
  }

  private func positiveNumber(_ node: JSONNode) throws(ScenarioError) -> Double {
    try node.double(in: ScenarioLimits.seconds)
  }

  private func change(
    _ node: JSONNode, days: Int, naming: NamingPolicy, running: inout [String: RunningExperiment],
    ever: inout (variants: NameUnion, keys: NameUnion), localNames: Set<String>
  ) throws(ScenarioError) -> RemoteChange {
    let object = try node.object(fields: ScenarioFields.change)
    let dayNode = try object.required("day")
    let day = try dayNode.integer()
    guard day >= 0, day < days else { throw dayNode.error("must lie between 0 and \(days - 1): the run lasts \(days) days") }
    let actions = ScenarioFields.change.dropFirst().filter { object.optional($0) != nil }
    guard actions.count == 1, let name = actions.first, let actionNode = object.optional(name) else {
      throw node.error("must hold \"day\" and exactly one of \(ScenarioFields.change.dropFirst().joined(separator: ", "))")
    }
    func requireRunning(_ node: JSONNode) throws(ScenarioError) -> String {
      let experiment = try node.string()
      guard running[experiment] != nil else {
        throw node.error("'\(experiment)' is not on the service on that day: add it in an earlier change")
      }
      return experiment
    }
    func requireVariant(_ node: JSONNode, of experiment: String) throws(ScenarioError) -> String {
      let variant = try node.string()
      let variants = running[experiment]!.variants
      guard variants.contains(variant) else {
        throw node.error("'\(variant)' is not a variant of \(experiment) (variants: \(variants.joined(separator: ", ")))")
      }
      return variant
    }
    let action: RemoteAction
    switch name {
    case "add":
      let (experiment, keys) = try remoteExperiment(actionNode, naming: naming)
      guard running[experiment.name] == nil, !localNames.contains(experiment.name) else {
        throw ScenarioError(
          path: "\(actionNode.path).name",
          message: "'\(experiment.name)' is already an experiment: give each experiment its own name")
      }
      try ever.variants.add(experiment.variants.map(\.name), of: experiment.name, at: "\(actionNode.path).variants")
      try ever.keys.add(keys, of: experiment.name, at: "\(actionNode.path).keys")
      running[experiment.name] = RunningExperiment(variants: experiment.variants.map(\.name), keys: keys)
      action = .add(experiment, keys: keys)
    case "remove":
      let experiment = try requireRunning(actionNode)
      running[experiment] = nil
      action = .remove(experiment: experiment)
    case "setPercentages":
      let fields = try actionNode.object(fields: ScenarioFields.setPercentages)
      let experiment = try requireRunning(fields.required("experiment"))
      var percentages: [String: Double] = [:]
      for (variant, value) in try fields.required("percentages").members() {
        _ = try requireVariant(JSONNode(value: .string(variant), path: value.path), of: experiment)
        percentages[variant] = try percentage(value)
      }
      try requireHundred(percentages.values, at: fields.required("percentages"))
      action = .setPercentages(experiment: experiment, percentages: percentages)
    case "setValues":
      let fields = try actionNode.object(fields: ScenarioFields.setValues)
      let experiment = try requireRunning(fields.required("experiment"))
      let variant = try requireVariant(fields.required("variant"), of: experiment)
      action = .setValues(experiment: experiment, variant: variant, values: try remoteValues(fields.required("values")))
    case "override":
      let fields = try actionNode.object(fields: ScenarioFields.override)
      let experiment = try requireRunning(fields.required("experiment"))
      let keysNode = try fields.required("keys")
      let keyNodes = try keysNode.array()
      guard !keyNodes.isEmpty else { throw keysNode.error("must list at least one key of \(experiment) to override") }
      let known = running[experiment]!.keys
      var keys: [String] = []
      for keyNode in keyNodes {
        let key = try keyNode.string()
        guard known.contains(key) else {
          throw keyNode.error("'\(key)' is not a key of \(experiment) (keys: \(known.joined(separator: ", ")))")
        }
        keys.append(key)
      }
      action = .override(experiment: experiment, keys: keys)
    case "conclude":
      let fields = try actionNode.object(fields: ScenarioFields.conclude)
      let experiment = try requireRunning(fields.required("experiment"))
      action = .conclude(experiment: experiment, winner: try requireVariant(fields.required("winner"), of: experiment))
    default:
      let fields = try actionNode.object(fields: ScenarioFields.declareKeys)
      let experiment = try requireRunning(fields.required("experiment"))
      let valueNode = try fields.required("value")
      let value = try valueNode.string()
      // A value that is not a list of keys is the wrapper's own failure to simulate, not the plan's.
      if case .array(let elements)? = try? JSONParser.parse(Array(value.utf8)) {
        let keys = elements.compactMap { element -> String? in
          guard case .string(let key) = element else { return nil }
          return key
        }
        try ever.keys.add(keys, of: experiment, at: valueNode.path)
        // The seed lets keys be declared over time: a later override may name any key the declaration lists.
        if keys.count == elements.count, !keys.isEmpty { running[experiment]!.keys = keys }
      }
      action = .declareKeys(experiment: experiment, value: .json(value))
    }
    return RemoteChange(day: day, action: action)
  }

  private func remoteExperiment(_ node: JSONNode, naming: NamingPolicy) throws(ScenarioError) -> (RemoteExperiment, [String]) {
    let object = try node.object(fields: ScenarioFields.remoteExperiment)
    let nameNode = try object.required("name")
    let name = try nameNode.string()
    if naming == .strict, !NamingConvention.upperCamelCase.accepts(name) {
      throw nameNode.error("should be UpperCamelCase, e.g. '\(NamingConvention.upperCamelCase.suggestion(for: name))', or set \"naming\": \"lenient\"")
    }
    let keysNode = try object.required("keys")
    let keys = try keysNode.array(count: ScenarioLimits.keys, of: "keys").map { node throws(ScenarioError) in try node.string() }
    let variantsNode = try object.required("variants")
    var variants: [RemoteVariant] = []
    for variantNode in try variantsNode.array(count: ScenarioLimits.variants, of: "variants") {
      let fields = try variantNode.object(fields: ScenarioFields.remoteVariant)
      let variantName = try fields.required("name").string()
      guard !variants.contains(where: { $0.name == variantName }) else {
        throw ScenarioError(path: "\(variantNode.path).name", message: "'\(variantName)' is used by another variant of \(name)")
      }
      variants.append(RemoteVariant(
        name: variantName, percentage: try percentage(fields.required("percentage")),
        values: try remoteValues(fields.required("values"))))
    }
    guard !variants.isEmpty else { throw variantsNode.error("must list at least one variant") }
    try requireHundred(variants.map(\.percentage), at: variantsNode)
    var audience = RemoteAudience()
    if let audienceNode = object.optional("audience") {
      let fields = try audienceNode.object(fields: ScenarioFields.audience)
      if let range = fields.optional("tokenRange") { audience.tokenRange = try tokenRange(range) }
      for (attribute, values) in try fields.optional("attributes")?.members() ?? [] {
        audience.attributes[attribute] = try values.array().map { node throws(ScenarioError) in try node.string() }
      }
    }
    return (RemoteExperiment(name: name, variants: variants, audience: audience), keys)
  }

  private func percentage(_ node: JSONNode) throws(ScenarioError) -> Double {
    let value = try node.double()
    guard (0...100).contains(value) else { throw node.error("must lie between 0 and 100") }
    return value
  }

  private func requireHundred(_ percentages: some Sequence<Double>, at node: JSONNode) throws(ScenarioError) {
    let total = percentages.reduce(0, +)
    guard abs(total - 100) <= 1e-9 else { throw node.error("percentages must sum to 100, not \(total)") }
  }

  private func remoteValues(_ node: JSONNode) throws(ScenarioError) -> [String: RemoteValue] {
    var values: [String: RemoteValue] = [:]
    for (key, child) in try node.members() {
      switch child.value {
      case .string(let string): values[key] = .string(string)
      case .integer, .number: values[key] = .number(try child.double())
      case .bool(let bool): values[key] = .bool(bool)
      default: throw child.error("must be a string, a number or a boolean, not \(child.value.typeName)")
      }
    }
    return values
  }

  func churn(_ node: JSONNode, catalog: ExperimentCatalog, remote: RemotePlan?) throws(ScenarioError) -> ChurnRule {
    let object = try node.object(fields: ScenarioFields.churn)
    let experimentNode = try object.required("experiment")
    let experiment = try experimentNode.string()
    try catalog.requireExperiment(experiment, at: experimentNode)
    guard remote?.experimentNames.contains(experiment) ?? false else {
      throw experimentNode.error("'\(experiment)' is a local experiment: churn rules apply to remote experiments, whose values can be fixed live")
    }
    let variantNode = try object.required("variant")
    let variant = try variantNode.string()
    try catalog.requireVariant(variant, of: experiment, at: variantNode)
    let whileValues = try object.optional("whileValues").map { node throws(ScenarioError) in try assignments(node) } ?? [:]
    return ChurnRule(
      experiment: experiment, variant: variant, whileValues: whileValues,
      dailyProbability: try probability(object.required("dailyProbability"), allowZero: false))
  }
}

/// What the reader knows of an experiment while it is on the service: the
/// names later changes may refer to.
private struct RunningExperiment {
  let variants: [String]
  /// As the experiment was added, then as its latest `__Keys_` declaration lists them.
  var keys: [String]
}
