import Foundation
import Lab

extension Scenario {
  /// The naming-convention breaches a lenient scenario accepted, with their paths.
  public typealias Warning = ScenarioError

  /// Reads and validates the scenario file at `path`.
  ///
  /// - Returns: the scenario and the warnings it raised (naming breaches under
  ///   a lenient policy).
  /// - Throws: `ScenarioError` naming the path of the first problem and its fix.
  public static func load(path: String) throws(ScenarioError) -> (scenario: Scenario, warnings: [Warning]) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ScenarioError(path: path, message: "cannot be read: check that the file exists and is readable")
    }
    return try parse(data)
  }

  /// Validates a scenario document.
  public static func parse(_ data: Data) throws(ScenarioError) -> (scenario: Scenario, warnings: [Warning]) {
    var reader = ScenarioReader()
    let scenario = try reader.scenario(JSONNode(value: JSONValue.parse(data), path: "$"))
    return (scenario, reader.warnings)
  }
}

/// Turns the JSON tree into a `Scenario`, field by field, with the path of
/// every field in its errors.
private struct ScenarioReader {
  var warnings: [ScenarioError] = []

  mutating func scenario(_ node: JSONNode) throws(ScenarioError) -> Scenario {
    let object = try node.object(fields: ["name", "description", "seed", "devices", "days", "naming", "versions"])
    let nameNode = try object.required("name")
    let name = try nameNode.string()
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
      throw nameNode.error("must be letters, digits, '-' or '_' (it names the report's folder), e.g. \"upgrade\"")
    }
    let seedNode = try object.required("seed")
    let seed = try seedNode.integer()
    guard seed >= 0 else { throw seedNode.error("must be 0 or greater") }
    let devices = try positive(object.required("devices"))
    let days = try positive(object.required("days"))
    var naming = NamingPolicy.strict
    if let node = object.optional("naming") {
      guard let policy = NamingPolicy(rawValue: try node.string()) else {
        throw node.error("must be \"strict\" or \"lenient\"")
      }
      naming = policy
    }
    let versionsNode = try object.required("versions")
    let versionNodes = try versionsNode.array()
    guard !versionNodes.isEmpty else { throw versionsNode.error("must list at least one version") }
    var versions: [AppVersion] = []
    for (index, versionNode) in versionNodes.enumerated() {
      let version = try appVersion(versionNode, isFirst: index == 0, naming: naming)
      if let previous = versions.last {
        guard version.releaseDay > previous.releaseDay else {
          throw ScenarioError(
            path: "\(versionNode.path).releaseDay",
            message: "must be later than \(previous.version)'s release day \(previous.releaseDay): list versions in release order")
        }
      }
      guard version.releaseDay < days else {
        throw ScenarioError(
          path: "\(versionNode.path).releaseDay", message: "must be before the last day: the run lasts \(days) days")
      }
      guard !versions.contains(where: { $0.version == version.version }) else {
        throw ScenarioError(path: "\(versionNode.path).version", message: "'\(version.version)' is listed twice")
      }
      versions.append(version)
    }
    return Scenario(
      name: name, description: try object.optional("description")?.string() ?? "", seed: UInt64(seed),
      devices: devices, days: days, naming: naming, versions: versions)
  }

  private func positive(_ node: JSONNode) throws(ScenarioError) -> Int {
    let value = try node.integer()
    guard value > 0 else { throw node.error("must be greater than 0") }
    return value
  }

  private mutating func appVersion(_ node: JSONNode, isFirst: Bool, naming: NamingPolicy) throws(ScenarioError) -> AppVersion {
    let object = try node.object(fields: ["version", "releaseDay", "adoption", "stabilizeOnLaunch", "experiments"])
    let version = try object.required("version").string()
    guard !version.isEmpty else { throw try object.required("version").error("must not be empty") }
    let releaseNode = try object.required("releaseDay")
    let releaseDay = try releaseNode.integer()
    if isFirst, releaseDay != 0 {
      throw releaseNode.error("must be 0 for the first version: every device starts on it")
    }
    var adoption = Adoption.immediate
    if let adoptionNode = object.optional("adoption") {
      adoption = try self.adoption(adoptionNode)
    } else if !isFirst {
      throw ScenarioError(
        path: "\(node.path).adoption",
        message: "is required after the first version, e.g. {\"meanDelayDays\": 7, \"neverUpgradeShare\": 0.1}")
    }
    let stabilizeOnLaunch = try object.optional("stabilizeOnLaunch").map { node throws(ScenarioError) in
      try positive(node)
    }
    var experiments: [Experiment] = []
    for experimentNode in try object.optional("experiments")?.array() ?? [] {
      let experiment = try self.experiment(experimentNode, naming: naming)
      guard !experiments.contains(where: { $0.name == experiment.name }) else {
        throw ScenarioError(path: "\(experimentNode.path).name", message: "'\(experiment.name)' is defined twice in this version")
      }
      experiments.append(experiment)
    }
    return AppVersion(
      version: version, releaseDay: releaseDay, adoption: adoption, stabilizeOnLaunch: stabilizeOnLaunch,
      experiments: experiments)
  }

  private func adoption(_ node: JSONNode) throws(ScenarioError) -> Adoption {
    let object = try node.object(fields: ["meanDelayDays", "neverUpgradeShare"])
    let delayNode = try object.required("meanDelayDays")
    let meanDelayDays = try delayNode.double()
    guard meanDelayDays >= 0 else { throw delayNode.error("must be 0 or greater (0: everyone upgrades on release day)") }
    var neverUpgradeShare = 0.0
    if let shareNode = object.optional("neverUpgradeShare") {
      neverUpgradeShare = try shareNode.double()
      guard (0...1).contains(neverUpgradeShare) else { throw shareNode.error("must lie between 0 and 1") }
    }
    return Adoption(meanDelayDays: meanDelayDays, neverUpgradeShare: neverUpgradeShare)
  }

  private mutating func experiment(_ node: JSONNode, naming: NamingPolicy) throws(ScenarioError) -> Experiment {
    let object = try node.object(fields: ["name", "keys", "variants", "baseline", "tokenRange"])
    let name = try object.required("name").string()
    let keys = try object.required("keys").array().map { node throws(ScenarioError) in try node.string() }
    let variants = try object.required("variants").array().map { node throws(ScenarioError) in try variant(node) }
    let baseline = try object.optional("baseline")?.string()
    var range = TokenRange.all
    if let rangeNode = object.optional("tokenRange") {
      range = try tokenRange(rangeNode)
    }
    let experiment: Experiment
    do {
      experiment = try Experiment(name: name, keys: keys, variants: variants, baseline: baseline, activeTokenRange: range)
    } catch {
      throw ScenarioError(path: "\(node.path).\(error.field)", message: error.problem)
    }
    for violation in experiment.namingViolations {
      let issue = ScenarioError(path: "\(node.path).\(fieldPath(of: violation, in: experiment))", message: "\(violation)")
      guard naming == .lenient else {
        throw ScenarioError(path: issue.path, message: issue.message + ", or set \"naming\": \"lenient\"")
      }
      warnings.append(issue)
    }
    return experiment
  }

  private func fieldPath(of violation: NamingViolation, in experiment: Experiment) -> String {
    switch violation.subject {
    case .experiment: return "name"
    case .key: return "keys[\(experiment.keys.firstIndex(of: violation.name)!)]"
    case .variant: return "variants[\(experiment.variantIndex(named: violation.name)!)].name"
    }
  }

  private func variant(_ node: JSONNode) throws(ScenarioError) -> Variant {
    let object = try node.object(fields: ["name", "weight", "assignments"])
    let weightNode = object.optional("weight")
    let weight = try weightNode?.integer() ?? 1
    if let weightNode, weight <= 0 { throw weightNode.error("must be greater than 0") }
    return Variant(
      name: try object.required("name").string(), weight: weight,
      assignments: try assignments(object.required("assignments")))
  }

  private func assignments(_ node: JSONNode) throws(ScenarioError) -> [String: AssignmentValue] {
    guard case .object(let members) = node.value else { throw node.error("must be an object of key: value") }
    var assignments: [String: AssignmentValue] = [:]
    for key in members.keys.sorted() {
      let child = JSONNode(value: members[key]!, path: "\(node.path).\(key)")
      switch child.value {
      case .string(let string): assignments[key] = .string(string)
      case .integer, .number: assignments[key] = .number(try child.double())
      default: throw child.error("must be a string or a number, not \(child.value.typeName)")
      }
    }
    return assignments
  }

  private func tokenRange(_ node: JSONNode) throws(ScenarioError) -> TokenRange {
    let bounds = try node.array()
    guard bounds.count == 2 else { throw node.error("must be [lower, upper], e.g. [0, 0.5]") }
    let lower = try bounds[0].double(), upper = try bounds[1].double()
    do {
      return try TokenRange(lower: lower, upper: upper)
    } catch {
      throw node.error("\(error)")
    }
  }
}
