import ArgumentParser
import ScenarioFormat

extension Bench {
  /// Loads, validates and describes a scenario.
  public struct Run: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Validate a scenario and describe its plan (the simulation is not built yet).",
      discussion: """
        Prints each version with its experiments, the token ranges and weights, the key \
        conflicts Lab would refuse, and what every change from the previous version does \
        to devices. It simulates nothing and writes no report yet.
        """
    )

    @Argument(help: "The scenario file, e.g. scenarios/upgrade.json.")
    var scenario: String

    @Option(help: "Use this seed instead of the scenario's.")
    var seed: UInt64?

    @Option(help: "Use this many devices instead of the scenario's.")
    var devices: Int?

    public init() {}

    public func validate() throws {
      if let devices, devices <= 0 {
        throw ValidationError("--devices must be greater than 0, e.g. --devices 10000.")
      }
    }

    public func run() throws {
      let (loaded, warnings) = try Scenario.load(path: scenario)
      var plan = loaded
      if let seed { plan.seed = seed }
      if let devices { plan.devices = devices }
      print(ScenarioDescription(scenario: plan, warnings: warnings).text, terminator: "")
    }
  }
}
