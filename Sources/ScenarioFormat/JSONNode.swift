import JSONDocument

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

  /// The whole number in `range`, or an error that states the range.
  func integer(in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
    let value = try integer()
    guard range.contains(value) else {
      throw error("must lie between \(range.lowerBound) and \(range.upperBound), not \(value)")
    }
    return value
  }

  /// The number in `range`, or an error that states the range.
  func double(in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
    let value = try double()
    guard range.contains(value) else {
      throw error("must lie between \(NumberText.plain(range.lowerBound)) and \(NumberText.plain(range.upperBound)), not \(NumberText.plain(value))")
    }
    return value
  }

  /// The elements of an array whose length is in `count`, named by the plural
  /// `noun` in the error.
  func array(count: ClosedRange<Int>, of noun: String) throws(ScenarioError) -> [JSONNode] {
    let elements = try array()
    guard count.contains(elements.count) else {
      throw elements.count < count.lowerBound
        ? error(count.lowerBound == 1 ? "must list at least one \(noun.dropLast())" : "must list at least \(count.lowerBound) \(noun)")
        : error("lists \(elements.count) \(noun); at most \(count.upperBound) are accepted")
    }
    return elements
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
      let shown = JSONParser.shortened(name)
      let child = path == "$" ? shown : "\(path).\(shown)"
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

  /// The known field nearest to a misspelt one, when it is near enough to be a
  /// typo. A name far longer than any field is no typo, and measuring it
  /// would cost its length times each field's.
  static func closest(to name: String, among fields: [String]) -> String? {
    guard name.utf8.count <= 64 else { return nil }
    if let synonym = synonyms[name.lowercased()], fields.contains(synonym) { return synonym }
    let scored = fields.map { ($0, ClosestNames.editDistance(name.lowercased(), $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
    return best.0
  }

  /// Other platforms' words for the scenario's fields, too far apart to be
  /// typos: a local experiment's `variants` are LaunchDarkly's and
  /// Optimizely's `variations` (and the reverse for a service's), a metric's
  /// `kind` is a `type` elsewhere.
  private static let synonyms = ["variations": "variants", "variants": "variations", "type": "kind"]
}
