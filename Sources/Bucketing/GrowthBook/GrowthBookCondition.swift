// SPDX-License-Identifier: Apache-2.0

import Foundation

/// GrowthBook's targeting conditions: a MongoDB-like query over the user's
/// attributes, evaluated in three-valued logic as the SDKs do (an operator
/// the bench does not know is "unknown", and a condition holds only when it
/// is true).
///
/// Supported: field equality (deep, type-strict), `$eq $ne $lt $lte $gt $gte`
/// (numbers with numbers, strings with strings), the version comparisons
/// `$veq $vne $vlt $vlte $vgt $vgte`, `$in $nin $all $size $elemMatch $exists
/// $type $regex $not` on a field and their newer case-insensitive and negated
/// forms `$ini $nini $alli $regexi $notRegex $notRegexi`, `$and $or $nor $not`
/// on conditions, `$inGroup $notInGroup` on the payload's saved groups, and
/// dotted paths into objects and arrays.
public enum GrowthBookCondition {
  /// Whether `attributes` satisfy `condition`; `savedGroups` are the
  /// payload's, by id, for `$inGroup` and `$notInGroup`, and `patterns` its
  /// `$regex` patterns, compiled when it was read.
  public static func evaluate(
    _ condition: AttributeValue, attributes: [String: AttributeValue], savedGroups: [String: AttributeValue] = [:],
    patterns: GrowthBookPatterns = GrowthBookPatterns()
  ) -> Bool {
    guard case .object(let members) = condition else { return false }
    return evaluate(members, attributes: .object(attributes), context: Context(groups: savedGroups, patterns: patterns)) == true
  }

  /// What a condition reads besides the attributes: the payload's saved groups and compiled patterns.
  struct Context {
    var groups: [String: AttributeValue] = [:]
    var patterns = GrowthBookPatterns()
  }

  static func evaluate(_ condition: [String: AttributeValue], attributes: AttributeValue, context: Context) -> Bool? {
    var result: Bool? = true
    for (key, value) in condition {
      let outcome: Bool?
      switch key {
      case "$or": outcome = or(value, attributes: attributes, context: context)
      case "$nor": outcome = or(value, attributes: attributes, context: context).map { !$0 }
      case "$and": outcome = and(value, attributes: attributes, context: context)
      case "$not":
        guard case .object(let inner) = value else { return false }
        outcome = evaluate(inner, attributes: attributes, context: context).map { !$0 }
      default: outcome = evaluate(value: value, against: path(key, in: attributes), context: context)
      }
      if outcome == false { return false }
      if outcome == nil { result = nil }
    }
    return result
  }

  private static func or(_ conditions: AttributeValue, attributes: AttributeValue, context: Context) -> Bool? {
    guard case .array(let items) = conditions else { return false }
    if items.isEmpty { return true }
    var result: Bool? = false
    for item in items {
      guard case .object(let condition) = item else { return false }
      let outcome = evaluate(condition, attributes: attributes, context: context)
      if outcome == true { return true }
      if outcome == nil { result = nil }
    }
    return result
  }

  private static func and(_ conditions: AttributeValue, attributes: AttributeValue, context: Context) -> Bool? {
    guard case .array(let items) = conditions else { return false }
    var result: Bool? = true
    for item in items {
      guard case .object(let condition) = item else { return false }
      let outcome = evaluate(condition, attributes: attributes, context: context)
      if outcome == false { return false }
      if outcome == nil { result = nil }
    }
    return result
  }

  /// A dotted path: object members by name, array elements by index, and an
  /// array's `length`; null where the path leads nowhere.
  static func path(_ path: String, in value: AttributeValue) -> AttributeValue {
    var current = value
    for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
      switch current {
      case .object(let members) where members[String(segment)] != nil:
        current = members[String(segment)]!
      case .array(let items) where segment == "length":
        current = .number(Double(items.count))
      case .array(let items):
        guard segment.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), segment.count <= 10,
          segment == "0" || segment.first != "0", let index = Int(segment), index < items.count
        else { return .null }
        current = items[index]
      default:
        return .null
      }
    }
    return current
  }

  private static func isOperatorObject(_ value: AttributeValue) -> Bool {
    guard case .object(let members) = value else { return false }
    return members.keys.allSatisfy { $0.hasPrefix("$") }
  }

  /// - Parameter insensitive: a plain string compares with a string
  ///   attribute in lower case (`$alli`'s elements).
  static func evaluate(
    value condition: AttributeValue, against attribute: AttributeValue, insensitive: Bool = false,
    context: Context = Context()
  ) -> Bool? {
    guard case .object(let operators) = condition, isOperatorObject(condition) else {
      if insensitive, case .string(let expected) = condition, case .string(let actual) = attribute {
        return expected.lowercased() == actual.lowercased()
      }
      return deepEqual(condition, attribute)
    }
    var result: Bool? = true
    for (name, operand) in operators {
      let outcome = apply(name, attribute: attribute, operand: operand, context: context)
      if outcome == false { return false }
      if outcome == nil { result = nil }
    }
    return result
  }

  private static func apply(
    _ name: String, attribute: AttributeValue, operand: AttributeValue, context: Context
  ) -> Bool? {
    switch name {
    case "$eq": return strictEqual(attribute, operand)
    case "$ne": return !strictEqual(attribute, operand)
    case "$lt", "$lte", "$gt", "$gte":
      guard let order = order(attribute, operand) else { return false }
      switch name {
      case "$lt": return order < 0
      case "$lte": return order <= 0
      case "$gt": return order > 0
      default: return order >= 0
      }
    case "$veq", "$vne", "$vlt", "$vlte", "$vgt", "$vgte":
      guard isOrderablePair(attribute, operand) else { return name == "$vne" }
      let actual = paddedVersion(attribute), expected = paddedVersion(operand)
      switch name {
      case "$veq": return actual == expected
      case "$vne": return actual != expected
      case "$vlt": return actual.utf8.lexicographicallyPrecedes(expected.utf8)
      case "$vlte": return !expected.utf8.lexicographicallyPrecedes(actual.utf8)
      case "$vgt": return expected.utf8.lexicographicallyPrecedes(actual.utf8)
      default: return !actual.utf8.lexicographicallyPrecedes(expected.utf8)
      }
    case "$regex", "$regexi", "$notRegex", "$notRegexi":
      // A pattern that does not compile, or an attribute that is no string, matches nothing:
      // `$regex` fails and `$notRegex` holds, as in the SDK.
      let negated = name.hasPrefix("$not")
      guard case .string(let pattern) = operand, case .string(let text) = attribute,
        let expression = context.patterns.search(pattern, caseInsensitive: name.hasSuffix("i"))
      else { return negated }
      return expression.found(in: text) != negated
    case "$in", "$nin", "$ini", "$nini":
      guard case .array(let list) = operand else { return false }
      let found = isIn(attribute, list, insensitive: name.hasSuffix("i"))
      return name.hasPrefix("$in") ? found : !found
    case "$all", "$alli":
      guard case .array(let list) = operand else { return false }
      guard case .array(let items) = attribute else { return false }
      var result: Bool? = true
      for expected in list {
        var passed: Bool? = false
        for item in items {
          let outcome = evaluate(value: expected, against: item, insensitive: name == "$alli", context: context)
          if outcome == true {
            passed = true
            break
          }
          if outcome == nil { passed = nil }
        }
        if passed == false { return false }
        if passed == nil { result = nil }
      }
      return result
    case "$size":
      guard case .array(let items) = attribute else { return false }
      return evaluate(value: operand, against: .number(Double(items.count)), context: context)
    case "$elemMatch":
      guard case .array(let items) = attribute else { return false }
      let conditionOperators: Set<String> = ["$or", "$nor", "$and", "$not"]
      let onValue = isOperatorObject(operand) && !(operand.object?.keys.contains(where: conditionOperators.contains) ?? false)
      var result: Bool? = false
      for item in items where item != .null {
        let outcome: Bool?
        if onValue {
          outcome = evaluate(value: operand, against: item, context: context)
        } else if case .object(let condition) = operand {
          outcome = evaluate(condition, attributes: item, context: context)
        } else {
          outcome = false
        }
        if outcome == true { return true }
        if outcome == nil { result = nil }
      }
      return result
    case "$exists":
      let wanted: Bool
      switch operand {
      case .bool(let flag): wanted = flag
      case .number(let number): wanted = number != 0
      case .string(let text): wanted = !text.isEmpty
      case .null: wanted = false
      case .array(let items): wanted = !items.isEmpty
      case .object(let members): wanted = !members.isEmpty
      }
      return wanted ? attribute != .null : attribute == .null
    case "$type":
      return operand == .string(typeName(attribute))
    case "$not":
      return evaluate(value: operand, against: attribute, context: context).map { !$0 }
    case "$inGroup", "$notInGroup":
      // A group of a type this SDK version does not know is "unknown"; an
      // absent one is empty; a malformed one fails the condition.
      guard case .string(let id) = operand else { return false }
      let values: [AttributeValue]
      switch context.groups[id] {
      case nil: values = []
      case .array(let list)?: values = list
      case .object(let group)?:
        guard let type = group["type"], type == .string("list") || type == .string("condition") else { return nil }
        guard type == .string("list"), case .array(let list)? = group["values"] else { return false }
        values = list
      default: return false
      }
      let found = isIn(attribute, values)
      return name == "$inGroup" ? found : !found
    case "$or", "$nor", "$and":
      return false
    default:
      return nil
    }
  }

  static func typeName(_ value: AttributeValue) -> String {
    switch value {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }

  /// JavaScript's `===` on values from two JSON parses: same type and equal,
  /// and never for arrays or objects.
  static func strictEqual(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    default: return false
    }
  }

  /// Equality of a plain condition value: type-strict and deep.
  static func deepEqual(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
    switch (a, b) {
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(deepEqual)
    case (.object(let x), .object(let y)):
      return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { deepEqual(x[$0]!, y[$0]!) }
    default: return strictEqual(a, b)
    }
  }

  /// Whether the attribute, or any element of an array attribute, is in the
  /// list; `insensitive` compares strings in lower case.
  private static func isIn(_ attribute: AttributeValue, _ list: [AttributeValue], insensitive: Bool = false) -> Bool {
    func folded(_ value: AttributeValue) -> AttributeValue {
      guard insensitive, case .string(let text) = value else { return value }
      return .string(text.lowercased())
    }
    if case .array(let items) = attribute {
      return items.contains { item in list.contains { strictEqual(folded(item), folded($0)) } }
    }
    if case .object = attribute { return false }
    return list.contains { strictEqual(folded(attribute), folded($0)) }
  }

  private static func isOrderablePair(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
    switch (a, b) {
    case (.number, .number), (.string, .string): return true
    default: return false
    }
  }

  /// -1, 0 or 1 as JavaScript's `<` and `>` order two values, which the
  /// SDK suite specifies (`comparing numbers and strings`, `[D1]`): two
  /// strings by UTF-16 code units, anything else as numbers, a missing
  /// attribute or null as 0, a boolean as 0 or 1, a string by JavaScript's
  /// `Number()`; `nil` when either is no number (NaN, an array or an
  /// object, which the bench does not turn into text first). The Python SDK
  /// compares only two numbers or two strings (docs/rules/GrowthBookWeightChange.md).
  static func order(_ a: AttributeValue, _ b: AttributeValue) -> Int? {
    if case .string(let x) = a, case .string(let y) = b {
      if x.utf16.elementsEqual(y.utf16) { return 0 }
      return x.utf16.lexicographicallyPrecedes(y.utf16) ? -1 : 1
    }
    guard let x = javaScriptNumber(a), let y = javaScriptNumber(b), !x.isNaN, !y.isNaN else { return nil }
    return x < y ? -1 : x > y ? 1 : 0
  }

  /// JavaScript's `Number(value)` for the values a comparison converts.
  static func javaScriptNumber(_ value: AttributeValue) -> Double? {
    switch value {
    case .number(let number): return number
    case .null: return 0
    case .bool(let flag): return flag ? 1 : 0
    case .string(let text): return JavaScriptNumber.parse(text)
    case .array, .object: return nil
    }
  }

  /// A version made comparable as text: a leading "v" and any "+build" are
  /// dropped, parts split on "." and "-", a release without a pre-release
  /// gets "~" (above any pre-release tag), and numeric parts are padded to
  /// five places.
  static func paddedVersion(_ value: AttributeValue) -> String {
    var text: String
    switch value {
    case .number(let number): text = JavaScriptNumber.string(number)
    case .string(let string) where !string.isEmpty: text = string
    default: text = "0"
    }
    if text.hasPrefix("v") { text.removeFirst() }
    if let plus = text.firstIndex(of: "+") { text = String(text[..<plus]) }
    var parts = text.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "-" }.map(String.init)
    if parts.count == 3 { parts.append("~") }
    return parts.map { part in
      part.allSatisfy(\.isNumber) && !part.isEmpty && part.allSatisfy(\.isASCII)
        ? String(repeating: " ", count: max(0, 5 - part.count)) + part : part
    }.joined(separator: "-")
  }
}
