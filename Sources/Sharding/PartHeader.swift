import Digests
import Foundation
import Platforms
import ScenarioFormat

/// What a part is a part of: the scenario file, the seed and population, the
/// replications, the shard and the bench that simulated it. Two parts merge
/// only when all but the shard's index are the same.
public struct PartHeader: Sendable {
  /// The version of the bench that wrote the part: counts from two versions
  /// of the engine do not add up to either's run.
  public let benchVersion: String
  /// The scenario file's bytes, as read.
  public let scenarioFile: [UInt8]
  /// The SHA-256 of the scenario file: what names the scenario in a part.
  public let scenarioDigest: String
  /// The seed and population after `--seed` and `--devices`.
  public let seed: UInt64
  public let devices: Int
  public let replications: Int
  public let shard: Shard

  public init(benchVersion: String, scenarioFile: [UInt8], seed: UInt64, devices: Int, replications: Int, shard: Shard) {
    self.benchVersion = benchVersion
    self.scenarioFile = scenarioFile
    scenarioDigest = SHA256.hex(of: scenarioFile)
    self.seed = seed
    self.devices = devices
    self.replications = replications
    self.shard = shard
  }

  /// The scenario the part simulated, with its seed and population; `path`
  /// names the part in the error.
  public func scenario(path: String) throws(ShardError) -> Scenario {
    do {
      var scenario = try Scenario.parse(Data(scenarioFile)).scenario
      scenario.seed = seed
      scenario.devices = devices
      return scenario
    } catch {
      throw .corrupt(path: path, problem: "its scenario does not read (\(error))")
    }
  }
}
