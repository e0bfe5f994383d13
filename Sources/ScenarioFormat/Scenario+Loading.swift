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
    try parse(read(path: path))
  }

  /// The bytes of the scenario file at `path`, for a caller that keeps the
  /// file itself (a shard's part carries it to the merge). `-` is standard
  /// input, so that a generated plan can be piped in.
  public static func read(path: String) throws(ScenarioError) -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ScenarioError(path: path, message: "cannot be read: check that the file exists and is readable")
    }
  }

  /// Validates a scenario document.
  public static func parse(_ data: Data) throws(ScenarioError) -> (scenario: Scenario, warnings: [Warning]) {
    var reader = ScenarioReader()
    let scenario = try reader.scenario(JSONNode(value: JSONValue.parse(data), path: "$"))
    return (scenario, reader.warnings)
  }
}
