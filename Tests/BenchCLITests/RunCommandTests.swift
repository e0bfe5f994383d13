import BenchCLI
import Foundation
import Testing

@Suite struct RunCommandTests {
  private let scenario = """
    { "name": "tiny", "description": "Two releases.", "seed": 7, "devices": 100, "days": 30,
      "versions": [
        { "version": "1.0", "releaseDay": 0, "experiments": [
          { "name": "Theme", "keys": ["color"], "tokenRange": [0, 0.5],
            "variants": [ { "name": "Blue", "weight": 2, "assignments": { "color": "blue" } },
                          { "name": "Red", "assignments": { "color": "red" } } ] },
          { "name": "Title", "keys": ["color"], "tokenRange": [0.4, 1],
            "variants": [ { "name": "Plain", "assignments": { "color": "grey" } } ] } ] },
        { "version": "2.0", "releaseDay": 10, "adoption": { "meanDelayDays": 3.5, "neverUpgradeShare": 0.1 },
          "stabilizeOnLaunch": 2, "experiments": [
          { "name": "Theme", "keys": ["color"], "tokenRange": [0, 0.5],
            "variants": [ { "name": "Blue", "weight": 2, "assignments": { "color": "blue" } },
                          { "name": "Green", "assignments": { "color": "green" } } ] } ] } ] }
    """

  @Test func itDescribesThePlanAndSaysNothingWasSimulated() throws {
    let path = try BenchProcess.temporaryFile(scenario)
    let result = try BenchProcess.run([path, "--seed", "99"])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput == """
      Scenario tiny: Two releases.
      Seed 99, 100 devices, 30 days, naming strict.

      Version 1.0, released on day 0, installed by every device
        Theme: keys color; active for tokens in [0, 0.5); baseline Blue
          Blue: weight 2 (66.7%) color="blue"
          Red: weight 1 (33.3%) color="red"
        Title: keys color; active for tokens in [0.4, 1]; baseline Plain
          Plain: weight 1 (100.0%) color="grey"
        key conflict: Theme and Title share 'color' and are both active for tokens in [0.4, 0.5); Lab refuses both on those devices

      Version 2.0, released on day 10, mean upgrade delay 3.5 days, 10.0% never upgrade, calls stabilize on launch 2
        Theme: keys color; active for tokens in [0, 0.5); baseline Blue
          Blue: weight 2 (66.7%) color="blue"
          Green: weight 1 (33.3%) color="green"
        change from 1.0: Theme variant Red deleted: its devices select again among the current variants
        change from 1.0: Theme variant Green added: only devices deciding afresh can select it
        change from 1.0: Title removed: devices delete their record of it

      The simulation engine is not built yet: the scenario is valid; nothing was simulated and no report was written.

      """)
  }

  @Test func aBadScenarioGivesOneLineAndAFailingStatus() throws {
    let path = try BenchProcess.temporaryFile(scenario.replacingOccurrences(of: #""weight": 2"#, with: #""weight": -1"#))
    let result = try BenchProcess.run([path])
    #expect(result.status == 1)
    #expect(result.standardOutput == "")
    #expect(result.standardError == "Error: versions[0].experiments[0].variants[0].weight: must be greater than 0\n")
  }

  @Test func aBadOptionNamesTheFlagAndTheFix() throws {
    let result = try BenchProcess.run(["scenarios/upgrade.json", "--devices", "0"])
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("Error: --devices must be greater than 0, e.g. --devices 10000.\n"))
  }

  @Test func theHelpSaysWhatTheCommandDoesToday() {
    #expect(Bench.helpMessage(for: Bench.Run.self, columns: 100) == """
      OVERVIEW: Validate a scenario and describe its plan (the simulation is not built yet).

      Prints each version with its experiments, the token ranges and weights, the key conflicts Lab would
      refuse, and what every change from the previous version does to devices. It simulates nothing and
      writes no report yet.

      USAGE: bench run <scenario> [--seed <seed>] [--devices <devices>]

      ARGUMENTS:
        <scenario>              The scenario file, e.g. scenarios/upgrade.json.

      OPTIONS:
        --seed <seed>           Use this seed instead of the scenario's.
        --devices <devices>     Use this many devices instead of the scenario's.
        --version               Show the version.
        -h, --help              Show help information.

      """)
  }
}
