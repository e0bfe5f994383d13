import Foundation
import Platforms
import Results
import ScenarioFormat
import Simulation
import Testing

@testable import BenchCLI

/// Every launch the engine can produce prints: for 200 devices of every
/// scenario in scenarios/, the debug screen's text is written for each device,
/// and the devices' replays add up to the full run's counts.
@Suite struct InspectEveryScenarioTests {
  @Test(arguments: try committedScenarioNames())
  func inspectPrintsEveryDeviceAndAgreesWithTheFullRun(name: String) async throws {
    var scenario = try Scenario.load(path: committedScenario(name)).scenario
    scenario.devices = 200
    let plan = SimulationPlan(scenario)
    let simulator = Simulator(plan: plan)
    let results = ResultsDocument(plan: plan, tally: await simulator.run(replication: 0, threads: 2))
    var exposed = plan.variantNames.map { Array(repeating: 0, count: $0.count) }
    var clashDevices = Array(repeating: 0, count: plan.sharedKeys.count)
    for device in 0..<scenario.devices {
      var history = DeviceHistory(plan: plan)
      _ = simulator.replay(device: device, observer: &history)
      let text = DeviceReport(plan: plan, history: history, replication: 0).text
      #expect(text.hasPrefix("Device \(device) of \(name) "))
      var shown = Set<[Int]>(), clashed = Set<String>()
      for launch in history.launches {
        for (index, slot) in plan.versions[launch.version].slots.enumerated() where launch.displayed[index] {
          let variant = slot.globalOfLocal[launch.decisions[index].variant!]
          shown.insert([slot.experimentID, variant])
        }
        for holding in launch.remote where holding.displayed { shown.insert([holding.experiment, holding.variant]) }
        for holding in launch.services where holding.displayed { shown.insert([holding.experiment, holding.variant]) }
        for clash in launch.clashes {
          for key in clash.keys {
            let experiments = [clash.servedExperiment, clash.discardedExperiment].sorted()
            clashed.insert("\(key) \(experiments)")
          }
        }
      }
      for pair in shown { exposed[pair[0]][pair[1]] += 1 }
      for (row, shared) in plan.sharedKeys.enumerated() where clashed.contains("\(shared.key) \(shared.experiments)") {
        clashDevices[row] += 1
      }
    }
    #expect(results.experiments.map { $0.variants.map(\.exposed) } == exposed, "\(name)")
    #expect(results.conflicts.map(\.devices) == clashDevices, "\(name)")
  }
}
