import Benchmark
import Simulation
import Testing

/// `bench perf` divides the engine's speed by the reference kernel's; the
/// ratio means something only if both do the same work. They draw from the
/// same streams, so on the workload their counts must agree exactly.
@Suite struct ReferenceKernelTests {
  /// The workload's sizes, and the world (`PerformanceWorkload.World`: installs, activity,
  /// weekdays, sessions, a hazard, weekly versions) at its own days and at more than 64 days.
  @Test(arguments: [(5, 5, 5, false), (3, 4, 7, false), (20, 5, 5, false), (5, 5, 35, true), (2, 3, 80, true)])
  func theReferenceCountsWhatTheEngineCounts(experiments: Int, versions: Int, days: Int, world: Bool) async throws {
    let devices = 3000
    let scenario = try PerformanceWorkload.scenario(
      devices: devices, experiments: experiments, versions: versions, days: days, world: world)
    let tally = await Simulator(plan: SimulationPlan(scenario)).run(replication: 0, threads: 2)
    let kernel = ReferenceKernel(
      seed: scenario.seed, experiments: experiments, versions: versions, days: days, world: world)
    let counts = await kernel.run(devices: devices, threads: 2, batchSize: 700)
    let variants = ReferenceKernel.variants

    #expect(counts.launches == tally.launches)
    #expect(counts.upgrades == tally.upgrades)
    for e in 0..<experiments {
      let experiment = tally.experiments[e]
      for v in 0..<variants {
        let cell = e * variants + v, variant = experiment.variants[v]
        #expect(counts.exposed[cell] == variant.exposed)
        #expect(counts.contaminated[cell] == variant.contaminated)
        #expect(counts.firstExposed[cell] == variant.firstExposed)
        #expect(counts.firstExposed[cell] == variant.firstExposure[0].outcomes.count)
        #expect(counts.conversions[cell] == variant.firstExposure[0].conversions)
        #expect(counts.uncontaminated[cell] == variant.uncontaminated[0].outcomes.count)
        #expect(counts.uncontaminatedConversions[cell] == variant.uncontaminated[0].conversions)
        #expect(abs(counts.expectedSum[cell] - variant.firstExposure[0].trueMeanSum.value) < 1e-9 * Double(devices))
        for day in 0..<days {
          let index = (e * days + day) * variants + v
          #expect(counts.dailyNewExposures[index] == experiment.dailyNewExposures[day * variants + v])
          #expect(counts.cohorts[index] == experiment.dailyCohorts[day * variants + v].outcomes.count)
          #expect(counts.cohortConversions[index] == experiment.dailyCohorts[day * variants + v].conversions)
        }
      }
      for pair in 0..<(versions * versions) {
        let base = (e * versions * versions + pair) * 4
        let transition = experiment.transitions[pair]
        #expect(
          counts.transitions[base..<(base + 4)].elementsEqual(
            [transition.kept, transition.reassigned, transition.deactivated, transition.activated]))
      }
    }
    // Not an empty agreement: the workload shows every variant and converts some; in the world,
    // devices launch several times on some days, not at all on others, and some first exposures
    // come after day 0 (new devices).
    #expect(counts.exposed.allSatisfy { $0 > 0 })
    #expect(counts.conversions.reduce(0, +) > 0)
    if world {
      #expect(counts.launches > devices * days / 5 && counts.launches < devices * days)
      #expect(counts.cohorts.enumerated().contains { $0.offset % (days * variants) >= 10 * variants && $0.element > 0 })
    }
  }
}
