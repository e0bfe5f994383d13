// SPDX-License-Identifier: Apache-2.0

/// The patterns of a payload's `$regex`, `$regexi`, `$notRegex` and `$notRegexi`
/// operators, compiled once when the payload is read: a condition is evaluated
/// at every decision, and compiling its pattern there cost more than searching
/// with it. A pattern the payload did not hold (a condition built by hand, or
/// added after reading) is compiled when it is met, as before.
public struct GrowthBookPatterns: Sendable {
  private struct Key: Hashable, Sendable {
    let pattern: String
    let caseInsensitive: Bool
  }

  /// By pattern and case, the compiled search, or nil for a pattern that does not compile.
  private var compiled: [Key: RegularExpressionSearch?] = [:]

  /// No pattern compiled ahead: each is compiled when it is met.
  public init() {}

  /// Every pattern the `conditions` hold, however deep in `$and`, `$or`,
  /// `$not` or `$elemMatch`.
  init(conditions: [AttributeValue]) {
    for condition in conditions { add(condition) }
  }

  /// How many patterns are compiled ahead, for the tests.
  var count: Int { compiled.count }

  /// The search for `pattern`, nil when it does not compile.
  func search(_ pattern: String, caseInsensitive: Bool) -> RegularExpressionSearch? {
    if let known = compiled[Key(pattern: pattern, caseInsensitive: caseInsensitive)] { return known }
    return RegularExpressionSearch(pattern, caseInsensitive: caseInsensitive)
  }

  /// As deep as the conditions, which their evaluation recurses through too.
  private mutating func add(_ value: AttributeValue) {
    switch value {
    case .object(let members):
      for (name, member) in members {
        if Self.operators.contains(name), case .string(let pattern) = member {
          let key = Key(pattern: pattern, caseInsensitive: name.hasSuffix("i"))
          if compiled[key] == nil { compiled[key] = .some(RegularExpressionSearch(pattern, caseInsensitive: key.caseInsensitive)) }
        } else {
          add(member)
        }
      }
    case .array(let items):
      for item in items { add(item) }
    default:
      break
    }
  }

  private static let operators: Set<String> = ["$regex", "$regexi", "$notRegex", "$notRegexi"]
}
