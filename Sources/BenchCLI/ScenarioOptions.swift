import ArgumentParser
import Foundation
import Platforms
import ScenarioFormat

/// The options every command that runs a scenario shares.
struct ScenarioOptions: ParsableArguments {
  @Argument(
    help: "The scenario file (scenarios/ holds examples), or - for standard input.", completion: .file(extensions: ["json"]))
  var scenario: String

  @Option(help: "Use this seed instead of the scenario's.")
  var seed: UInt64?

  @Option(help: "Simulate this many devices instead of the scenario's number.")
  var devices: Int?

  func validate() throws {
    try RunLimits.check(devices: devices)
  }

  /// The scenario with the options applied, and its warnings.
  func load() throws -> (scenario: Scenario, warnings: [ScenarioError]) {
    let loaded = try loadFile()
    return (loaded.scenario, loaded.warnings)
  }

  /// The scenario with the options applied, its warnings, and the file as read.
  func loadFile() throws -> (scenario: Scenario, warnings: [ScenarioError], file: Data) {
    let file = try Scenario.read(path: self.scenario)
    var (scenario, warnings) = try Scenario.parse(file)
    if let seed { scenario.seed = seed }
    if let devices { scenario.devices = devices }
    return (scenario, warnings, file)
  }
}

/// Writes a line to standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
