import Foundation
import ScenarioFormat

extension Scenario {
  /// Reads and validates the scenario file at `path`, whose service may run
  /// on any of the bench's platforms (`PlatformRegistry.standard`).
  public static func load(path: String) throws(ScenarioError) -> (scenario: Scenario, warnings: [Warning]) {
    try load(path: path, platforms: PlatformRegistry.standard.traits)
  }

  /// Validates a scenario document whose service may run on any of the
  /// bench's platforms (`PlatformRegistry.standard`).
  public static func parse(_ data: Data) throws(ScenarioError) -> (scenario: Scenario, warnings: [Warning]) {
    try parse(data, platforms: PlatformRegistry.standard.traits)
  }
}
