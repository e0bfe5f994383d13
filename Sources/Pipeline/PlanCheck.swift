import Expectations
import Foundation
import Platforms
import Results
import ScenarioFormat
import Simulation

/// A plan run as `bench` runs it, and its expectations checked on the run's
/// figures: what `bench test` prints, and what an app's own tests assert on
/// (`swift test` on a plan kept in the app's repository).
public struct PlanCheck: Sendable {
  public let scenario: Scenario
  public let replications: Int
  /// The run's results.json model: the first replication's counts, with the
  /// calibration over all replications when there were several.
  public let document: ResultsDocument
  /// Each of the plan's expectations, in its order.
  public let outcomes: [ExpectationOutcome]

  /// The expectations the run broke.
  public var failures: [ExpectationOutcome] { outcomes.filter { $0.status == .failed } }

  /// How many replications a check makes unless told: one, or the plan's
  /// default when it expects a decision's rate, which only replications measure.
  public static func replications(for scenario: Scenario) -> Int {
    let needsRates = scenario.expectations.contains {
      switch $0.measure {
      case .rightShip, .wrongShip: true
      default: false
      }
    }
    return needsRates ? SimulatedRun.defaultReplications(devices: scenario.devices, days: scenario.days) : 1
  }

  /// Runs `scenario` with its own seed and size and checks its expectations;
  /// `progress` gets the device runs done so far.
  public static func run(
    _ scenario: Scenario, replications: Int? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
    progress: (Int) -> Void = { _ in }
  ) async -> PlanCheck {
    let replications = replications ?? Self.replications(for: scenario)
    let simulator = Simulator(plan: SimulationPlan(scenario))
    var run = SimulatedRun(scenario: scenario, plan: simulator.plan, replications: replications)
    await run.simulate(0..<replications, of: simulator, threads: threads, progress: progress)
    let document = run.document
    return PlanCheck(
      scenario: scenario, replications: replications, document: document,
      outcomes: ExpectationCheck.check(scenario, against: document))
  }

  /// Reads the plan at `path` (a scenario file with an `expect` list) as
  /// `bench test` does, runs it and checks it. Throws the scenario's error,
  /// which names the field and the fix.
  public static func run(planAt path: String, replications: Int? = nil) async throws -> PlanCheck {
    let scenario = try Scenario.load(path: path).scenario
    return await run(scenario, replications: replications)
  }
}
