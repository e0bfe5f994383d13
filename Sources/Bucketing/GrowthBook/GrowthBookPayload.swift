// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A GrowthBook features payload, as the SDKs receive it from the API
/// (`{"features": {key: {"defaultValue", "rules": [...]}}}`), and the
/// evaluation of a feature for a user: rules in order, a force rule when its
/// condition holds and its coverage includes the user, an experiment rule
/// when the user is in the experiment, the default otherwise.
public struct GrowthBookPayload: Sendable {
  public var features: [String: Feature] {
    didSet { patterns = Self.patterns(of: features) }
  }
  /// The payload's saved groups by id, for `$inGroup` and `$notInGroup`.
  public var savedGroups: [String: AttributeValue] = [:]
  /// Every `$regex` pattern of the features' conditions, compiled once.
  public private(set) var patterns: GrowthBookPatterns

  public struct Feature: Sendable {
    public var defaultValue: AttributeValue
    public var rules: [Rule]

    public init(defaultValue: AttributeValue, rules: [Rule]) {
      self.defaultValue = defaultValue
      self.rules = rules
    }
  }

  /// A feature rule: a force rule when `force` is set (a rollout when it has
  /// a coverage or a range), an experiment rule when `variations` is.
  public struct Rule: Sendable {
    public init(
      id: String = "", condition: AttributeValue?, force: AttributeValue?, coverage: Double?,
      range: (start: Double, end: Double)? = nil, experiment: GrowthBookExperiment?, hashAttribute: String,
      fallbackAttribute: String? = nil, hashVersion: Int, seed: String?
    ) {
      self.id = id
      self.condition = condition
      self.force = force
      self.coverage = coverage
      self.range = range
      self.experiment = experiment
      self.hashAttribute = hashAttribute
      self.fallbackAttribute = fallbackAttribute
      self.hashVersion = hashVersion
      self.seed = seed
    }

    /// The rule's id, as the SDK reports the rule that decided ("" without one).
    public var id: String
    public var condition: AttributeValue?
    public var force: AttributeValue?
    public var coverage: Double?
    /// A rollout's slice of the hash, half-open; it replaces the coverage when set.
    public var range: (start: Double, end: Double)?
    public var experiment: GrowthBookExperiment?
    public var hashAttribute: String
    /// The attribute a rollout hashes when the hash attribute has no value.
    public var fallbackAttribute: String?
    public var hashVersion: Int
    public var seed: String?
    /// Users any filter leaves out skip the rule.
    public var filters: [GrowthBookHash.Filter] = []
    /// Prerequisites: other features' values the rule needs.
    public var parentConditions: [ParentCondition] = []
  }

  /// A rule's prerequisite: the feature `id`'s value must meet `condition`
  /// (as `{"value": …}`); when it does not, a gate ends the whole evaluation,
  /// anything else skips the rule.
  public struct ParentCondition: Sendable {
    /// The feature; nil for an id that is no string, which names no feature.
    public var id: String?
    public var condition: AttributeValue
    public var gate: Bool

    public init(id: String?, condition: AttributeValue, gate: Bool) {
      self.id = id
      self.condition = condition
      self.gate = gate
    }
  }

  /// Reads a payload; a feature or rule that is not of GrowthBook's form is
  /// named in the error.
  public init(json: Data) throws(BucketingError) {
    let root: AttributeValue
    do {
      root = try AttributeValue(json: json)
    } catch {
      throw .unreadable(format: "GrowthBook features payload", reason: BucketingError.describe(error))
    }
    try self.init(root)
  }

  /// Reads a payload already parsed as JSON.
  public init(_ root: AttributeValue) throws(BucketingError) {
    guard case .object(let features)? = root.object?["features"] else {
      throw .unreadable(format: "GrowthBook features payload", reason: "features: an object of features is required")
    }
    var parsed: [String: Feature] = [:]
    for (key, value) in features {
      guard case .object(let feature) = value else {
        throw .unreadable(format: "GrowthBook features payload", reason: "features.\(key): must be an object")
      }
      let rules: [AttributeValue]
      switch feature["rules"] {
      case nil, .null?: rules = []
      case .array(let list)?: rules = list
      default: throw .unreadable(format: "GrowthBook features payload", reason: "features.\(key).rules: must be an array of rules")
      }
      parsed[key] = Feature(
        defaultValue: feature["defaultValue"] ?? .null,
        rules: try rules.enumerated().map { index, rule throws(BucketingError) in
          guard case .object(let members) = rule else {
            throw .unreadable(format: "GrowthBook features payload", reason: "features.\(key).rules[\(index)]: must be an object")
          }
          try Self.checkTypes(members, path: "features.\(key).rules[\(index)]")
          return Self.rule(members, featureKey: key)
        })
    }
    self.features = parsed
    patterns = Self.patterns(of: parsed)
    switch root.object?["savedGroups"] {
    case nil, .null?: break
    case .object(let groups)?: savedGroups = groups
    default: throw .unreadable(format: "GrowthBook features payload", reason: "savedGroups: must be an object of groups by id")
    }
  }

  public init(features: [String: Feature], savedGroups: [String: AttributeValue] = [:]) {
    self.features = features
    self.savedGroups = savedGroups
    patterns = Self.patterns(of: features)
  }

  /// The patterns of every rule's condition, prerequisites and experiment, in any order.
  private static func patterns(of features: [String: Feature]) -> GrowthBookPatterns {
    GrowthBookPatterns(conditions: features.values.flatMap { feature in
      feature.rules.flatMap { rule in
        [rule.condition, rule.experiment?.condition].compactMap { $0 } + rule.parentConditions.map(\.condition)
      }
    })
  }

  /// A rule's members whose JSON type the SDK's own types rule out.
  private static func checkTypes(_ members: [String: AttributeValue], path: String) throws(BucketingError) {
    func fail(_ field: String, _ expected: String) -> BucketingError {
      .unreadable(format: "GrowthBook features payload", reason: "\(path).\(field): must be \(expected)")
    }
    if let variations = members["variations"], variations.array == nil { throw fail("variations", "an array of values") }
    if let coverage = members["coverage"], coverage.number == nil { throw fail("coverage", "a number from 0 to 1") }
    if let weights = members["weights"], weights.array?.allSatisfy({ $0.number != nil }) != true {
      throw fail("weights", "an array of numbers")
    }
    if let condition = members["condition"], condition.object == nil { throw fail("condition", "an object") }
    if let range = members["range"], range.array.map({ $0.count == 2 && $0.allSatisfy { $0.number != nil } }) != true {
      throw fail("range", "an array of two numbers, the hash's start and end")
    }
    func isRanges(_ value: AttributeValue?) -> Bool {
      value?.array?.allSatisfy { $0.array.map { $0.count == 2 && $0.allSatisfy { $0.number != nil } } ?? false } ?? false
    }
    if let ranges = members["ranges"], !isRanges(ranges) {
      throw fail("ranges", "an array of [start, end] pairs of numbers, one per variation")
    }
    if let filters = members["filters"] {
      guard let list = filters.array else { throw fail("filters", "an array of filters") }
      for (index, filter) in list.enumerated() {
        guard filter.object != nil, isRanges(filter.object?["ranges"]) else {
          throw fail("filters[\(index)]", "a filter: an object with \"ranges\", an array of [start, end] pairs")
        }
      }
    }
    if let parents = members["parentConditions"] {
      guard let list = parents.array, list.allSatisfy({ $0.object != nil }) else {
        throw fail("parentConditions", "an array of {\"id\", \"condition\", \"gate\"} objects")
      }
    }
  }

  /// The saved groups a condition's `$inGroup` and `$notInGroup` name, in the order met.
  private static func groupsNamed(in condition: AttributeValue?) -> [String] {
    switch condition {
    case .object(let members)?:
      return members.keys.sorted().flatMap { key -> [String] in
        if key == "$inGroup" || key == "$notInGroup", let group = members[key]!.string { return [group] }
        return groupsNamed(in: members[key])
      }
    case .array(let items)?:
      return items.flatMap { groupsNamed(in: $0) }
    default:
      return []
    }
  }

  /// JavaScript's truthiness of a JSON value.
  static func isTruthy(_ value: AttributeValue) -> Bool {
    switch value {
    case .null: false
    case .bool(let flag): flag
    case .number(let number): number != 0 && !number.isNaN
    case .string(let text): !text.isEmpty
    case .array, .object: true
    }
  }

  /// What the SDK tolerates but a payload's author did not mean, by path, in
  /// the order of the saved groups' and features' keys: a saved group the
  /// conditions cannot read, a condition naming no saved group, a
  /// prerequisite naming no feature, a coverage outside [0, 1] (the SDK
  /// clamps it), weights that do not match the variations or do not add up to
  /// 1 (the SDK then splits equally), a namespace outside [0, 1], a hash
  /// version other than 1 and 2 (the SDK assigns nobody).
  public var problems: [String] {
    var problems: [String] = []
    for id in savedGroups.keys.sorted() {
      switch savedGroups[id]! {
      case .array: break
      case .object(let group) where group["type"] == .string("list"):
        if group["values"]?.array == nil { problems.append("savedGroups.\(id): a list group without a values array; conditions on it fail") }
      case .object(let group) where group["type"] == .string("condition"):
        problems.append("savedGroups.\(id): a condition group, which $inGroup does not read; conditions on it fail")
      case .object:
        problems.append("savedGroups.\(id): a group of a type the SDK does not know; conditions on it are unknown and fail")
      default:
        problems.append("savedGroups.\(id): neither a list of values nor a group object; conditions on it fail")
      }
    }
    for key in features.keys.sorted() {
      for (index, rule) in features[key]!.rules.enumerated() {
        let path = "features.\(key).rules[\(index)]"
        for group in Self.groupsNamed(in: rule.condition) where savedGroups[group] == nil {
          problems.append("\(path).condition: '\(group)' names no saved group; the SDK takes it as empty")
        }
        for (parentIndex, parent) in rule.parentConditions.enumerated() where parent.id.map({ features[$0] == nil }) ?? true {
          problems.append(
            "\(path).parentConditions[\(parentIndex)].id: \(parent.id.map { "'\($0)' is" } ?? "it is not a string, so it names") "
              + "no feature of the payload; the SDK evaluates it as unknown, its value null")
        }
        if let coverage = rule.coverage, !(0...1).contains(coverage) {
          problems.append("\(path).coverage: \(coverage) lies outside 0 to 1; the SDK takes \(min(max(coverage, 0), 1))")
        }
        guard let experiment = rule.experiment else { continue }
        if let weights = experiment.weights {
          if weights.count != experiment.variations.count {
            problems.append(
              "\(path).weights: \(weights.count) weights for \(experiment.variations.count) variations; the SDK splits equally")
          } else if abs(weights.reduce(0, +) - 1) > 0.01 {
            problems.append("\(path).weights: they add up to \(weights.reduce(0, +)), not 1; the SDK splits equally")
          }
        }
        if let namespace = experiment.namespace,
          !(0 <= namespace.start && namespace.start <= namespace.end && namespace.end <= 1)
        {
          problems.append("\(path).namespace: [\(namespace.start), \(namespace.end)] is not a range within 0 to 1")
        }
        if ![1, 2].contains(rule.hashVersion) {
          problems.append("\(path).hashVersion: the SDK knows versions 1 and 2; with another it assigns nobody")
        }
      }
    }
    return problems
  }

  private static func rule(_ members: [String: AttributeValue], featureKey: String) -> Rule {
    let hashAttribute = members["hashAttribute"]?.string ?? "id"
    let experiment = members["force"] == nil && members["variations"]?.array != nil
      ? GrowthBookExperiment(members: members, key: featureKey) : nil
    let range = members["range"]?.array.map { (start: $0[0].number!, end: $0[1].number!) }
    var rule = Rule(
      id: members["id"]?.string ?? "", condition: members["condition"], force: members["force"],
      coverage: members["coverage"]?.number, range: range, experiment: experiment, hashAttribute: hashAttribute,
      fallbackAttribute: members["fallbackAttribute"]?.string,
      hashVersion: GrowthBookExperiment.hashVersion(members["hashVersion"]), seed: members["seed"]?.string)
    rule.filters = GrowthBookExperiment.filters(members["filters"])
    // A prerequisite without an id or a condition is skipped, as the SDK skips it.
    rule.parentConditions = members["parentConditions"]?.array?.compactMap(\.object).compactMap { parent in
      guard let id = parent["id"], id != .null, let condition = parent["condition"], condition != .null else { return nil }
      return ParentCondition(id: id.string, condition: condition, gate: parent["gate"].map(Self.isTruthy) ?? false)
    } ?? []
    return rule
  }

  /// A feature's value for a user and where it came from.
  public struct Evaluation: Sendable, Hashable {
    public let value: AttributeValue
    /// "unknownFeature", "defaultValue", "force" or "experiment", as the SDKs say.
    public let source: String
    /// The experiment's result, for an experiment rule that decided.
    public let experiment: GrowthBookExperiment.Result?
    public let experimentKey: String?
    /// The id of the rule that decided, as the SDK reports it: "" for the default value.
    public let ruleID: String
    /// What each rule did, in order: the evaluation stops at the first that decides.
    public let rules: [RuleOutcome]
  }

  /// What one rule did in an evaluation.
  public enum RuleOutcome: Sendable, Hashable {
    /// The rule's condition does not hold for the user.
    case conditionFailed
    /// A rollout whose coverage or range leaves the user out.
    case outsideRollout
    /// A filter leaves the user out.
    case filteredOut
    /// A prerequisite is not met.
    case prerequisiteFailed
    /// A force rule that decided.
    case forced
    /// An experiment rule ran: it decided when the user is in the experiment.
    case experiment(GrowthBookExperiment.Result)
    /// Neither a force nor variations: the SDK skips it.
    case invalid
    /// An earlier rule decided.
    case notReached
  }

  /// Evaluates a feature as the SDK's `evalFeature` does: the rules in order,
  /// the first that applies deciding.
  public func evaluate(
    _ key: String, attributes: [String: AttributeValue], sticky: inout GrowthBookStickyBuckets?
  ) -> Evaluation {
    var evaluating: Set<String> = []
    return evaluate(key, attributes: attributes, sticky: &sticky, evaluating: &evaluating)
  }

  /// - Parameter evaluating: the features whose evaluation led here, through
  ///   prerequisites: meeting one again is a cycle.
  private func evaluate(
    _ key: String, attributes: [String: AttributeValue], sticky: inout GrowthBookStickyBuckets?,
    evaluating: inout Set<String>
  ) -> Evaluation {
    func ended(_ source: String, rules: [RuleOutcome] = []) -> Evaluation {
      Evaluation(value: .null, source: source, experiment: nil, experimentKey: nil, ruleID: "", rules: rules)
    }
    guard let feature = features[key] else { return ended("unknownFeature") }
    guard !evaluating.contains(key) else { return ended("cyclicPrerequisite") }
    evaluating.insert(key)
    let entered = evaluating
    var outcomes: [RuleOutcome] = []
    func decided(_ value: AttributeValue, _ source: String, _ rule: Rule, experiment: GrowthBookExperiment.Result? = nil)
      -> Evaluation
    {
      outcomes += Array(repeating: .notReached, count: feature.rules.count - outcomes.count)
      return Evaluation(
        value: value, source: source, experiment: experiment, experimentKey: experiment == nil ? nil : rule.experiment?.key,
        ruleID: rule.id, rules: outcomes)
    }
    for rule in feature.rules {
      // Each rule's prerequisites start from the features that led to this one.
      evaluating = entered
      if !rule.parentConditions.isEmpty {
        switch prerequisites(rule.parentConditions, attributes: attributes, sticky: &sticky, evaluating: &evaluating) {
        case .gate:
          outcomes.append(.prerequisiteFailed)
          return ended("prerequisite", rules: outcomes + Array(repeating: .notReached, count: feature.rules.count - outcomes.count))
        case .cyclic:
          outcomes.append(.prerequisiteFailed)
          return ended("cyclicPrerequisite", rules: outcomes + Array(repeating: .notReached, count: feature.rules.count - outcomes.count))
        case .fail:
          outcomes.append(.prerequisiteFailed)
          continue
        case .pass:
          break
        }
      }
      if let condition = rule.condition,
        !GrowthBookCondition.evaluate(condition, attributes: attributes, savedGroups: savedGroups, patterns: patterns)
      {
        outcomes.append(.conditionFailed)
        continue
      }
      if !rule.filters.isEmpty, GrowthBookHash.Filter.filtersOut(rule.filters, attributes: attributes) {
        outcomes.append(.filteredOut)
        continue
      }
      if let force = rule.force {
        guard Self.isIncludedInRollout(rule, featureKey: key, attributes: attributes) else {
          outcomes.append(.outsideRollout)
          continue
        }
        outcomes.append(.forced)
        return decided(force, "force", rule)
      }
      guard let experiment = rule.experiment else {
        outcomes.append(.invalid)
        continue
      }
      let result = experiment.run(attributes: attributes, sticky: &sticky, savedGroups: savedGroups, patterns: patterns)
      outcomes.append(.experiment(result))
      // A user in a passthrough variation (a holdout's way through) goes on to the next rule.
      guard result.inExperiment, !experiment.passthroughVariations.contains(result.variationID) else { continue }
      return decided(experiment.variations[result.variationID], "experiment", rule, experiment: result)
    }
    return Evaluation(
      value: feature.defaultValue, source: "defaultValue", experiment: nil, experimentKey: nil, ruleID: "", rules: outcomes)
  }

  /// What a rule's prerequisites say: all met, one not met (a gate's ends
  /// the evaluation), or a cycle through them.
  private enum Prerequisites { case pass, fail, gate, cyclic }

  private func prerequisites(
    _ parents: [ParentCondition], attributes: [String: AttributeValue], sticky: inout GrowthBookStickyBuckets?,
    evaluating: inout Set<String>
  ) -> Prerequisites {
    let entered = evaluating
    for parent in parents {
      evaluating = entered
      let result = parent.id.map { evaluate($0, attributes: attributes, sticky: &sticky, evaluating: &evaluating) }
        ?? Evaluation(value: .null, source: "unknownFeature", experiment: nil, experimentKey: nil, ruleID: "", rules: [])
      if result.source == "cyclicPrerequisite" { return .cyclic }
      if !GrowthBookCondition.evaluate(
        parent.condition, attributes: ["value": result.value], savedGroups: savedGroups, patterns: patterns)
      {
        return parent.gate ? .gate : .fail
      }
    }
    return .pass
  }

  /// A rollout's coverage or range: users whose hash of the rule's seed (the
  /// feature's key by default) lies below the coverage or within the range.
  /// The hash attribute's value, else the fallback attribute's; without
  /// either the user is left out.
  private static func isIncludedInRollout(_ rule: Rule, featureKey: String, attributes: [String: AttributeValue]) -> Bool {
    if rule.coverage == nil && rule.range == nil { return true }
    if rule.coverage == 0 && rule.range == nil { return false }
    guard
      let value = GrowthBookExperiment.hashValue(attributes[rule.hashAttribute])
        ?? rule.fallbackAttribute.flatMap({ GrowthBookExperiment.hashValue(attributes[$0]) }),
      let n = GrowthBookHash.hash(seed: rule.seed ?? featureKey, value: value, version: rule.hashVersion)
    else { return false }
    if let range = rule.range { return range.start <= n && n < range.end }
    return n < rule.coverage!
  }
}
