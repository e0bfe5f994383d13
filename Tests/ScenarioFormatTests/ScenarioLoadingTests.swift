import Foundation
import Lab
import Platforms
import ScenarioFormat
import Testing

/// The repository's root, to read the committed scenarios.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A valid one-version scenario, as JSON text, for tests to break one field at a time.
func minimalScenario(experiments: String = defaultExperiment, extra: String = "") -> String {
  """
  { "name": "tiny", "seed": 7, "devices": 100, "days": 30\(extra),
    "versions": [ { "version": "1.0", "releaseDay": 0, "experiments": [\(experiments)] } ] }
  """
}

let defaultExperiment = """
  { "name": "Theme", "keys": ["color"], "tokenRange": [0, 0.5],
    "variants": [ { "name": "Blue", "weight": 2, "assignments": { "color": "blue" } },
                  { "name": "Red", "assignments": { "color": "red" } } ] }
  """

func parse(_ text: String) throws(ScenarioError) -> (scenario: Scenario, warnings: [Scenario.Warning]) {
  try Scenario.parse(Data(text.utf8))
}

@Suite struct ScenarioLoadingTests {
  @Test func theUpgradeScenarioLoads() throws {
    let path = repositoryRoot.appendingPathComponent("scenarios/upgrade.json").path
    let (scenario, warnings) = try Scenario.load(path: path)
    #expect(warnings.isEmpty)
    #expect(scenario.name == "upgrade")
    #expect(scenario.versions.map(\.version) == ["1.0", "2.0", "3.0", "4.0"])
    #expect(scenario.versions.last?.stabilizeOnLaunch == 1)
    let theme = try #require(scenario.versions[0].experiments.first)
    #expect(theme.selectionProbabilities == [0.5, 0.25, 0.25])
  }

  @Test func aMinimalScenarioTakesItsDefaults() throws {
    let (scenario, _) = try parse(minimalScenario())
    #expect(scenario.naming == .strict)
    #expect(scenario.description == "")
    #expect(scenario.versions[0].adoption == .immediate)
    #expect(scenario.versions[0].stabilizeOnLaunch == nil)
    let experiment = scenario.versions[0].experiments[0]
    #expect(experiment.baseline == "Blue")
    #expect(experiment.variants.map(\.weight) == [2, 1])
    #expect(experiment.activeTokenRange == (try TokenRange(lower: 0, upper: 0.5)))
  }

  @Test func numbersAndStringsAreAssignmentValues() throws {
    let experiment = """
      { "name": "Size", "keys": ["fontSize", "label"],
        "variants": [ { "name": "Small", "assignments": { "fontSize": 10, "label": "S" } } ] }
      """
    let (scenario, _) = try parse(minimalScenario(experiments: experiment))
    #expect(scenario.versions[0].experiments[0].variants[0].assignments == ["fontSize": .number(10), "label": .string("S")])
  }

  @Test func lenientNamingTurnsViolationsIntoWarnings() throws {
    let experiment = """
      { "name": "theme", "keys": ["color"], "variants": [ { "name": "baseline", "assignments": { "color": "blue" } } ] }
      """
    let (_, warnings) = try parse(minimalScenario(experiments: experiment, extra: #", "naming": "lenient""#))
    #expect(warnings.map(\.path) == ["versions[0].experiments[0].name", "versions[0].experiments[0].variants[0].name"])
  }
}
