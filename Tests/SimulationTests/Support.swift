import Foundation
import Platforms
import Results
import ScenarioFormat
@testable import Simulation

/// The repository's root, to read the committed scenarios.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A committed scenario, optionally with fewer devices or days for speed.
func scenario(_ name: String, devices: Int? = nil, days: Int? = nil) throws -> Scenario {
  var scenario = try Scenario.load(path: repositoryRoot.appendingPathComponent("scenarios/\(name).json").path).scenario
  if let devices { scenario.devices = devices }
  if let days { scenario.days = days }
  return scenario
}

/// The results.json text of one run.
func resultsJSON(_ scenario: Scenario, threads: Int, batchSize: Int = 16384, replications: Int = 1) async -> String {
  let simulator = Simulator(plan: SimulationPlan(scenario), batchSize: batchSize)
  var tallies: [RunTally] = []
  for replication in 0..<replications {
    tallies.append(await simulator.run(replication: replication, threads: threads))
  }
  return ResultsDocument(plan: simulator.plan, tally: tallies[0], replications: replications).json.rendered()
}

/// Whether `count` successes in `trials` are within `sigmas` standard errors
/// of the binomial expectation `trials × p`.
func withinBinomialBound(_ count: Int, of trials: Int, p: Double, sigmas: Double = 4.5) -> Bool {
  let expected = Double(trials) * p
  let standardError = (Double(trials) * p * (1 - p)).squareRoot()
  return abs(Double(count) - expected) <= sigmas * standardError
}

extension ResultsDocument {
  func experiment(_ name: String) -> ExperimentResult? {
    experiments.first { $0.name == name }
  }
}

extension ExperimentResult {
  func variant(_ name: String) -> VariantResult? {
    variants.first { $0.name == name }
  }

  func transition(_ from: String, _ to: String) -> TransitionResult? {
    transitions.first { $0.fromVersion == from && $0.toVersion == to }
  }
}

/// The document of one run of the first replication.
func run(_ scenario: Scenario, threads: Int = 2) async -> ResultsDocument {
  let simulator = Simulator(plan: SimulationPlan(scenario))
  return ResultsDocument(plan: simulator.plan, tally: await simulator.run(replication: 0, threads: threads))
}

/// Every device of `scenario` replayed in order, each with its history, as
/// the first replication simulates it.
func histories(_ scenario: Scenario) -> [DeviceHistory] {
  let simulator = Simulator(plan: SimulationPlan(scenario))
  var histories: [DeviceHistory] = []
  simulator.replay(devices: 0..<scenario.devices, makeObserver: { DeviceHistory(plan: simulator.plan) }) {
    histories.append($0)
    return true
  }
  return histories
}

/// Each device's segment and the moment it takes `version`, drawn as the
/// run draws them (`UpgradeSchedule`), without simulating its launches.
func upgradeMoments(_ scenario: Scenario, version: Int) -> [(segment: Int, moment: Double)] {
  let tables = SimulationTables(SimulationPlan(scenario))
  var schedule = UpgradeSchedule(tables: tables)
  var moments: [(segment: Int, moment: Double)] = []
  for device in 0..<scenario.devices {
    let random = DeviceRandom(seed: scenario.seed, replication: 0, device: device)
    var segmentDraw = random.stream(.segment)
    let segment = tables.segment(forUnit: segmentDraw.nextUnit())
    schedule.draw(random.stream(.adoption), updates: random.stream(.updates), segment: segment, tables: tables)
    moments.append((segment, schedule.upgradeDays[version]))
  }
  return moments
}
