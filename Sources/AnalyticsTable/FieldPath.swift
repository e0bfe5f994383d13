/// Where a value sits in an export's row: members by name, separated by
/// dots (`event_properties.flag_key`), and `NAME[KEY]` for a repeated field
/// of `{key, value}` records, as BigQuery exports Firebase's parameters and
/// user properties (`event_params[value]`). In a CSV table the first name is
/// a column; the rest reads the column's text as JSON.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
  enum Step: Hashable {
    case member(String)
    /// The element of an array of records whose `key` is this, then its `value`.
    case keyed(String)
  }

  let steps: [Step]
  public let description: String

  /// Nil for text that is no path: an empty name or key, an unclosed `[`, text after `]`.
  public init?(_ text: String) {
    var steps: [Step] = []
    var rest = text[...]
    while true {
      let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
      let name = String(rest[..<end])
      guard !name.isEmpty, !name.contains("]") else { return nil }
      steps.append(.member(name))
      rest = rest[end...]
      if rest.first == "[" {
        guard let close = rest.firstIndex(of: "]") else { return nil }
        let key = String(rest[rest.index(after: rest.startIndex)..<close])
        guard !key.isEmpty else { return nil }
        steps.append(.keyed(key))
        rest = rest[rest.index(after: close)...]
      }
      guard let separator = rest.first else { break }
      guard separator == "." else { return nil }
      rest = rest.dropFirst()
    }
    self.steps = steps
    description = text
  }

  /// The first step's name: in a CSV table, the column.
  var head: String {
    guard case .member(let name) = steps[0] else { preconditionFailure("a path starts with a name") }
    return name
  }

  /// The path followed `from` a value; nil where a step finds nothing. A
  /// record of typed slots (`string_value`, `int_value`, `double_value`,
  /// `float_value`, as BigQuery exports a parameter's value) reads as the
  /// slot that is set.
  func resolve(in value: JSONValue, from first: Int = 0) -> JSONValue? {
    var current = value
    for step in steps[first...] {
      switch step {
      case .member(let name):
        guard let next = current[member: name] else { return nil }
        current = next
      case .keyed(let key):
        guard case .array(let elements) = current,
          let element = elements.first(where: { $0[member: "key"]?.text == key }),
          let next = element[member: "value"]
        else { return nil }
        current = next
      }
    }
    return current.typedSlot ?? current
  }

  /// The names found in `value` where the path's last step looks: the
  /// members of the object it names a member of, or the keys of the records
  /// it picks one of. For the message that no row had the path.
  func neighbours(in value: JSONValue) -> [String] {
    guard let parent = steps.count == 1 ? value : FieldPath(steps: Array(steps.dropLast())).resolve(in: value) else { return [] }
    switch (steps.last!, parent) {
    case (.member, .object(let members)): return members.map(\.key)
    case (.keyed, .array(let records)): return records.compactMap { $0[member: "key"]?.text }
    default: return []
    }
  }

  private init(steps: [Step]) {
    self.steps = steps
    description = ""
  }
}

extension JSONValue {
  /// The slot that is set in a record of BigQuery's typed slots, nil for any other value.
  var typedSlot: JSONValue? {
    guard case .object(let members) = self,
      members.contains(where: { Self.slotNames.contains($0.key) })
    else { return nil }
    for name in Self.slotNames {
      if let value = self[member: name], value != .null { return value }
    }
    return .null
  }

  private static let slotNames = ["string_value", "int_value", "double_value", "float_value"]
}
