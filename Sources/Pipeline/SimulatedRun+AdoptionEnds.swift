import Results
import ScenarioFormat
import Simulation

extension SimulatedRun {
  /// Runs the plan's replications again with every adoption curve at each
  /// end of its points' intervals (`Scenario.atAdoptionEnd`), on the same
  /// seeds, and keeps what each experiment's decision did at each end:
  /// `bench --world-ends`, how much the plan's figures depend on what the
  /// team's export could tell of its adoption. `progress` gets the devices
  /// done over both ends.
  public mutating func simulateAdoptionEnds(threads: Int, progress: (Int) -> Void = { _ in }) async {
    var ends: [AdoptionEndCalibration] = []
    for (index, end) in AdoptionEnd.allCases.enumerated() {
      let scenario = scenario.atAdoptionEnd(end)
      let simulator = Simulator(plan: SimulationPlan(scenario))
      var run = SimulatedRun(scenario: scenario, plan: simulator.plan, replications: replications)
      let done = index * replications * scenario.devices
      await run.simulate(0..<replications, of: simulator, threads: threads) { progress(done + $0) }
      let experiments = (run.document.calibration?.experiments ?? []).filter { $0.decision != nil }
      ends.append(AdoptionEndCalibration(
        end: end.rawValue,
        experiments: experiments.map { ExperimentCalibration(name: $0.name, decision: $0.decision, metrics: []) }))
    }
    adoptionEnds = ends
  }
}
