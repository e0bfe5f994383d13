import ArgumentParser
import Platforms
import ScenarioFormat

extension Bench {
  /// Validates a scenario and describes its plan without simulating it.
  public struct Describe: ParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Validate a scenario and describe its plan, without simulating it.",
      discussion: """
        Prints each version with its experiments, the token ranges and weights, the key \
        conflicts the manager would meet, and what every change from the previous version does \
        to devices.
        """
    )

    @Argument(help: "The scenario file, e.g. scenarios/upgrade.json.", completion: .file(extensions: ["json"]))
    var scenario: String

    public init() {}

    public func run() throws {
      let (plan, warnings) = try Scenario.load(path: scenario)
      print(ScenarioDescription(scenario: plan, warnings: warnings).text, terminator: "")
    }
  }
}
