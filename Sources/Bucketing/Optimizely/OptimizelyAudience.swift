// SPDX-License-Identifier: Apache-2.0

/// Optimizely's audience evaluation: a tree of "and", "or" and "not" over
/// audiences, each a tree over attribute conditions, in three-valued logic.
/// A leaf that cannot be evaluated (a missing attribute, a value of the wrong
/// type, an unknown match) is `nil`, "unknown": "and" is false if any operand
/// is false, else unknown if any is, else true; "or" likewise; "not" of
/// unknown is unknown. A user meets the audience only on `true`.
public enum OptimizelyAudience {
  /// Whether a user with `attributes` meets an experiment's or rule's
  /// audience conditions: its `audienceConditions`, else its `audienceIds`
  /// (any of them); no audience at all admits everyone.
  public static func admits(
    _ experiment: OptimizelyDatafile.Experiment, audiences: [String: OptimizelyDatafile.Audience],
    attributes: [String: AttributeValue]
  ) -> Bool {
    let tree: AttributeValue = experiment.audienceConditions ?? .array(experiment.audienceIds.map(AttributeValue.string))
    if case .array(let items) = tree, items.isEmpty { return true }
    let result = evaluate(tree) { leaf in
      guard case .string(let id) = leaf, let audience = audiences[id] else { return nil }
      return evaluate(audience.conditions) { evaluate(condition: $0, attributes: attributes) }
    }
    return result == true
  }

  /// A condition tree: an array whose first element is "and", "or" or "not"
  /// applies it to the rest; any other array is an implicit "or"; anything
  /// else is a leaf.
  static func evaluate(_ tree: AttributeValue, leaf: (AttributeValue) -> Bool?) -> Bool? {
    guard case .array(let items) = tree else { return leaf(tree) }
    let operands: ArraySlice<AttributeValue>
    let op: String
    if case .string(let first)? = items.first, ["and", "or", "not"].contains(first) {
      op = first
      operands = items.dropFirst()
    } else {
      op = "or"
      operands = items[...]
    }
    switch op {
    case "and":
      var unknown = false
      for operand in operands {
        switch evaluate(operand, leaf: leaf) {
        case false?: return false
        case nil: unknown = true
        case true?: break
        }
      }
      return unknown ? nil : true
    case "not":
      guard let first = operands.first else { return nil }
      return evaluate(first, leaf: leaf).map { !$0 }
    default:
      var unknown = false
      for operand in operands {
        switch evaluate(operand, leaf: leaf) {
        case true?: return true
        case nil: unknown = true
        case false?: break
        }
      }
      return unknown ? nil : false
    }
  }

  /// One attribute condition, `{"name", "type": "custom_attribute", "match",
  /// "value"}`: true, false, or `nil` when it cannot be evaluated.
  public static func evaluate(condition leaf: AttributeValue, attributes: [String: AttributeValue]) -> Bool? {
    guard let condition = leaf.object, let name = condition["name"]?.string,
      ["custom_attribute", "third_party_dimension"].contains(condition["type"]?.string ?? "")
    else { return nil }
    let match = condition["match"]?.string ?? "exact"
    let target = condition["value"] ?? .null
    let user = attributes[name] ?? .null
    if match == "exists" { return user != .null }
    guard ["exact", "gt", "ge", "lt", "le", "substring", "semver_eq", "semver_lt", "semver_le", "semver_gt", "semver_ge"]
      .contains(match), user != .null
    else { return nil }
    switch match {
    case "exact":
      switch (target, user) {
      case (.string(let a), .string(let b)): return a == b
      case (.bool(let a), .bool(let b)): return a == b
      case (.number(let a), .number(let b)):
        guard isFinite(a), isFinite(b) else { return nil }
        return a == b
      default: return nil
      }
    case "gt", "ge", "lt", "le":
      guard case .number(let a) = target, isFinite(a), case .number(let b) = user, isFinite(b) else { return nil }
      switch match {
      case "gt": return b > a
      case "ge": return b >= a
      case "lt": return b < a
      default: return b <= a
      }
    case "substring":
      guard case .string(let a) = target, case .string(let b) = user else { return nil }
      return a.isEmpty || b.contains(a)
    default:
      guard case .string(let a) = target, case .string(let b) = user,
        let order = OptimizelyVersion.compare(user: b, target: a)
      else { return nil }
      switch match {
      case "semver_eq": return order == 0
      case "semver_lt": return order < 0
      case "semver_le": return order <= 0
      case "semver_gt": return order > 0
      default: return order >= 0
      }
    }
  }

  /// Optimizely treats numbers beyond ±2⁵³ like infinities: not comparable.
  private static func isFinite(_ value: Double) -> Bool {
    value.isFinite && abs(value) <= 0x1p53
  }
}

/// Optimizely's comparison of app versions ("semver" match types): numeric
/// parts compared as numbers, a target with fewer parts matching any user
/// version that starts with it ("2.1" equals "2.1.5"), pre-releases
/// ("-beta") below their release, build metadata ("+5") otherwise ignored.
enum OptimizelyVersion {
  /// -1, 0 or 1 for the user's version against the target, `nil` when
  /// either is not a version.
  static func compare(user: String, target: String) -> Int? {
    let targetIsPreRelease = isPreRelease(target), userIsPreRelease = isPreRelease(user)
    let targetIsBuild = isBuild(target)
    guard let targetParts = split(target), let userParts = split(user) else { return nil }
    for (index, targetPart) in targetParts.enumerated() {
      guard index < userParts.count else { return targetIsPreRelease || targetIsBuild ? 1 : -1 }
      let userPart = userParts[index]
      if isDigits(userPart), let userNumber = Int(userPart), let targetNumber = Int(targetPart) {
        if userNumber > targetNumber { return 1 }
        if userNumber < targetNumber { return -1 }
      } else if !isDigits(userPart) {
        if userPart.utf8.lexicographicallyPrecedes(targetPart.utf8) {
          return targetIsPreRelease && !userIsPreRelease ? 1 : -1
        }
        if targetPart.utf8.lexicographicallyPrecedes(userPart.utf8) {
          return !targetIsPreRelease && userIsPreRelease ? -1 : 1
        }
      } else {
        return nil
      }
    }
    return userIsPreRelease && !targetIsPreRelease ? -1 : 0
  }

  /// A "-" that comes before any "+".
  static func isPreRelease(_ version: String) -> Bool {
    guard let dash = version.firstIndex(of: "-") else { return false }
    guard let plus = version.firstIndex(of: "+") else { return true }
    return dash < plus
  }

  /// A "+" that comes before any "-".
  static func isBuild(_ version: String) -> Bool {
    guard let plus = version.firstIndex(of: "+") else { return false }
    guard let dash = version.firstIndex(of: "-") else { return true }
    return plus < dash
  }

  /// Up to three dot-separated numbers, then the pre-release or build suffix
  /// as one more part; `nil` for anything else.
  static func split(_ version: String) -> [String]? {
    guard !version.contains(" ") else { return nil }
    var prefix = Substring(version), suffix: [String] = []
    let separator: Character? = isPreRelease(version) ? "-" : isBuild(version) ? "+" : nil
    if let separator, let index = version.firstIndex(of: separator) {
      prefix = version[..<index]
      suffix = [String(version[version.index(after: index)...])]
    }
    let parts = prefix.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count <= 3, parts.allSatisfy(isDigits) else { return nil }
    return parts + suffix
  }

  static func isDigits(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }
}
