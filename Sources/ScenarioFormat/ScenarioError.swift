import JSONDocument

/// A scenario file that cannot be used, with the JSON path of the offending
/// field and what would fix it, e.g.
/// `versions[2].experiments[0].variants[1].weight: must be greater than 0`.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The JSON path of the field, `$` for the whole document.
  public let path: String
  public let message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String {
    "\(path): \(message)"
  }
}

extension ScenarioError {
  /// A JSON problem as the scenario reader reports it, at the same path.
  init(_ error: JSONError) {
    self.init(path: error.path, message: error.message)
  }
}
