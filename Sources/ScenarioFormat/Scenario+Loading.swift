import Foundation
import JSONDocument
import Lab

extension Scenario {
  /// The naming-convention breaches a lenient scenario accepted, with their paths.
  public typealias Warning = ScenarioError

  /// Reads and validates the scenario file at `path`.
  ///
  /// - Parameter platforms: the hash-bucketed platforms `service.framework`
  ///   may name (`Platforms.PlatformRegistry.standard.traits` for the bench's own).
  /// - Returns: the scenario and the warnings it raised (naming breaches under
  ///   a lenient policy).
  /// - Throws: `ScenarioError` naming the path of the first problem and its fix.
  public static func load(path: String, platforms: [PlatformTraits]) throws(ScenarioError)
    -> (scenario: Scenario, warnings: [Warning])
  {
    try parse(read(path: path), platforms: platforms)
  }

  /// The bytes of the scenario file at `path`, for a caller that keeps the
  /// file itself (a shard's part carries it to the merge). `-` is standard
  /// input, so that a generated plan can be piped in.
  public static func read(path: String) throws(ScenarioError) -> Data {
    let limit = ScenarioLimits.fileBytes
    let tooLarge = ScenarioError(
      path: path == "-" ? "standard input" : path,
      message: "holds more than \(limit >> 20) MB, more than any scenario needs: check that it is a scenario file")
    if path == "-" {
      // Read in pieces, so that a directory, a closed input or an endless one is an error, not a trap.
      var data = Data()
      do {
        while let piece = try FileHandle.standardInput.read(upToCount: 1 << 20), !piece.isEmpty {
          data.append(piece)
          if data.count > limit { throw tooLarge }
        }
      } catch let error as ScenarioError {
        throw error
      } catch {
        throw ScenarioError(path: "standard input", message: "cannot be read: pipe a scenario file into it, e.g. cat plan.json | bench -")
      }
      return data
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    if size > limit { throw tooLarge }
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw ScenarioError(path: path, message: "cannot be read: check that the file exists and is readable" + nearbyScenarios(of: path))
    }
  }

  /// For a path that names no file: the scenario file beside it whose name is
  /// nearest, or the first few there, so that a typo meets its fix.
  private static func nearbyScenarios(of path: String) -> String {
    guard !FileManager.default.fileExists(atPath: path) else { return "" }
    let folder = (path as NSString).deletingLastPathComponent
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
      .filter { $0.hasSuffix(".json") }.sorted()
    guard !names.isEmpty else { return "" }
    let place = { (name: String) in folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name) }
    if let closest = JSONObject.closest(to: (path as NSString).lastPathComponent, among: names) {
      return "; did you mean '\(place(closest))'?"
    }
    let shown = names.prefix(5).map(place).joined(separator: ", ")
    return " (\(folder.isEmpty ? "this folder" : folder) has \(shown)\(names.count > 5 ? ", …" : ""))"
  }

  /// Validates a scenario document whose service may run on any of `platforms`.
  public static func parse(_ data: Data, platforms: [PlatformTraits]) throws(ScenarioError)
    -> (scenario: Scenario, warnings: [Warning])
  {
    var reader = ScenarioReader(platforms: platforms)
    let scenario = try reader.scenario(JSONNode(value: JSONValue.parse(data), path: "$"))
    return (scenario, reader.warnings)
  }
}
