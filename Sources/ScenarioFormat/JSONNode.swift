/// A value of the scenario document together with its JSON path: every read
/// names the path in its error, so a message always points at the field.
struct JSONNode {
  let value: JSONValue
  let path: String

  func error(_ message: String) -> ScenarioError {
    ScenarioError(path: path, message: message)
  }

  private func mismatch(_ expected: String) -> ScenarioError {
    error("must be \(expected), not \(value.typeName)")
  }

  func string() throws(ScenarioError) -> String {
    guard case .string(let string) = value else { throw mismatch("a string") }
    return string
  }

  func bool() throws(ScenarioError) -> Bool {
    guard case .bool(let bool) = value else { throw mismatch("true or false") }
    return bool
  }

  func double() throws(ScenarioError) -> Double {
    switch value {
    case .integer(let integer): return Double(integer)
    case .number(let number): return number
    default: throw mismatch("a number")
    }
  }

  func integer() throws(ScenarioError) -> Int {
    switch value {
    case .integer(let integer): return Int(integer)
    case .number(let number) where number.rounded() == number && abs(number) < 0x1p62: return Int(number)
    case .number: throw error("must be a whole number")
    default: throw mismatch("a whole number")
    }
  }

  func array() throws(ScenarioError) -> [JSONNode] {
    guard case .array(let elements) = value else { throw mismatch("an array") }
    return elements.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
  }

  /// The members of an object whose field names are data (experiment or
  /// segment names), sorted by name.
  func members() throws(ScenarioError) -> [(String, JSONNode)] {
    guard case .object(let members) = value else { throw mismatch("an object") }
    return members.keys.sorted().map { ($0, JSONNode(value: members[$0]!, path: "\(path).\($0)")) }
  }

  /// Reads the node as an object whose fields are exactly `fields`: any other
  /// field is an error, so a typo cannot silently change a result.
  func object(fields: [String]) throws(ScenarioError) -> JSONObject {
    guard case .object(let members) = value else { throw mismatch("an object") }
    for name in members.keys.sorted() where !fields.contains(name) {
      let child = path == "$" ? name : "\(path).\(name)"
      let hint = JSONObject.closest(to: name, among: fields).map { "; did you mean '\($0)'?" } ?? ""
      throw ScenarioError(
        path: child, message: "is not a known field\(hint) (known: \(fields.joined(separator: ", ")))")
    }
    return JSONObject(members: members, path: path)
  }
}

/// The fields of one JSON object, read by name.
struct JSONObject {
  let members: [String: JSONValue]
  let path: String

  private func childPath(_ name: String) -> String {
    path == "$" ? name : "\(path).\(name)"
  }

  /// The field `name`, which must be present.
  func required(_ name: String) throws(ScenarioError) -> JSONNode {
    guard let value = members[name], value != .null else {
      throw ScenarioError(path: childPath(name), message: "is required")
    }
    return JSONNode(value: value, path: childPath(name))
  }

  /// The field `name`, or `nil` when it is absent or null.
  func optional(_ name: String) -> JSONNode? {
    guard let value = members[name], value != .null else { return nil }
    return JSONNode(value: value, path: childPath(name))
  }

  /// The known field nearest to a misspelt one, when it is near enough to be a typo.
  static func closest(to name: String, among fields: [String]) -> String? {
    let scored = fields.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
    return best.0
  }

  /// Levenshtein distance: the fewest single-character edits from `a` to `b`.
  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var diagonal = row[0]
      row[0] = i
      for j in 1...b.count {
        let substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)
        diagonal = row[j]
        row[j] = min(substitution, row[j] + 1, row[j - 1] + 1)
      }
    }
    return row[b.count]
  }
}
