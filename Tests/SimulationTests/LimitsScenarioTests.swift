import Foundation
import Platforms
import Results
import ScenarioFormat
import Simulation
import Testing

/// The largest plans the format accepts run as they should, and a run's cost
/// is known before it starts.
@Suite struct LimitsScenarioTests {
  /// Once, variants past the 64th got no devices and the sample ratio check
  /// did not notice. At the limit every variant gets its share.
  @Test func sixtyFourVariantsEachGetTheirShare() async throws {
    let variants = (0..<64).map { #"{ "name": "V\#($0)", "assignments": { "color": "c\#($0)" } }"# }
    let text = """
      { "name": "many", "seed": 3, "devices": 64000, "days": 2, "versions": [{ "version": "1.0", "releaseDay": 0,
        "experiments": [{ "name": "Theme", "keys": ["color"], "variants": [\(variants.joined(separator: ", "))] }] }] }
      """
    let results = await run(try Scenario.parse(Data(text.utf8)).scenario)
    let theme = try #require(results.experiment("Theme"))
    #expect(theme.variants.count == 64)
    #expect(theme.variants.map(\.firstExposed).reduce(0, +) == 64_000)
    for variant in theme.variants {
      #expect(withinBinomialBound(variant.firstExposed, of: 64_000, p: 1.0 / 64), "\(variant.name): \(variant.firstExposed)")
    }
  }

  @Test func theEstimateCountsLaunchesAndScalesWithTheRun() throws {
    let upgrade = try scenario("upgrade")
    let plan = SimulationPlan(upgrade)
    let one = RunEstimate(plan: plan, devices: 1_000, replications: 1, threads: 1)
    let launchesPerDevice = upgrade.population.segments.reduce(0.0) {
      $0 + $1.share * $1.dailyLaunchProbability * Double(upgrade.days)
    }
    #expect(abs(one.launches - 1_000 * launchesPerDevice) < 1e-6)
    let experiments = Double(max(plan.experimentNames.count, 5)) / 5
    let cohorts = Double(plan.variantNames.map(\.count).reduce(0, +) * upgrade.days * upgrade.metrics.count)
    #expect(abs(one.seconds - (one.launches * experiments / RunEstimate.launchesPerSecondPerThread
      + cohorts * RunEstimate.secondsPerCohort)) < 1e-9)
    let large = RunEstimate(plan: plan, devices: 1_000_000_000, replications: 10, threads: 4)
    #expect(abs(large.launches / one.launches - 1e7) < 1e-6)
    // Tallies: one per replication and one per thread, each the same size.
    #expect(abs(large.bytes / one.bytes - 14.0 / 2.0) < 1e-9)
  }

  /// Each batch builds the service's configuration of every revision: the
  /// estimate counts revisions times experiments once per batch and thread.
  @Test func theEstimateCountsEachBatchsSetUp() async throws {
    var scenario = try scenario("optimizely-traffic-change")
    let plan = SimulationPlan(scenario)
    let revisions = try #require(scenario.service?.revisions.count)
    #expect(revisions == 3 && plan.serviceExperiments.count == 1)
    func seconds(_ plan: SimulationPlan, devices: Int, threads: Int) -> Double {
      RunEstimate(plan: plan, devices: devices, replications: 1, threads: threads).seconds
    }
    // Without the set-up, 40,000 devices are what 16,384 and 2 more batches are: the difference is 2 batches' set-up.
    let setUp = Double(revisions) * RunEstimate.secondsPerRevisionExperiment
    let simulating = { (devices: Int) in
      RunEstimate(plan: plan, devices: devices, replications: 1, threads: 1).launches / RunEstimate.launchesPerSecondPerThread
    }
    let cohorts = seconds(plan, devices: 16_384, threads: 1) - simulating(16_384) - setUp
    #expect(abs(seconds(plan, devices: 40_000, threads: 1) - (simulating(40_000) + cohorts + 3 * setUp)) < 1e-9)
    // A plan that starts 2,000 experiments on one day counts 2,000 of them per batch.
    scenario.service?.changes = (0..<2_000).map { index in
      ServiceChange(day: 0, action: .start(ServiceExperiment(name: "E\(index)", variations: [
        ServiceVariation(name: "A", weight: 1), ServiceVariation(name: "B", weight: 1),
      ], traffic: 0.5, audience: ServiceAudience())))
    }
    let many = SimulationPlan(scenario)
    #expect(many.serviceExperiments.count == 2_000)
    let billion = RunEstimate(plan: many, devices: 1_000_000_000, replications: 1, threads: 2)
    #expect(billion.seconds > Double(61_036 * 2_000) * RunEstimate.secondsPerRevisionExperiment / 2)
    // The 2,000 starts of one day make one revision, and the plan runs to its results (its set-up was
    // cubic in revisions, experiments and changes: over a minute for these 10 devices).
    #expect(scenario.service?.revisions.count == 1)
    scenario.devices = 10
    let results = await run(scenario)
    #expect(results.experiments.count == 2_000)
    #expect(results.devices == 10)
  }

  /// The estimate measures a tally on one and two days and extends it: exact
  /// for every committed scenario, so the size is linear in the days.
  @Test(arguments: try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("scenarios").path)
    .filter { $0.hasSuffix(".json") }.sorted())
  func theTallySizeIsLinearInTheDays(file: String) throws {
    let plan = SimulationPlan(try scenario(String(file.dropLast(5))))
    var counter = CountingVisitor()
    var tally = RunTally(plan: plan)
    tally.visitCounts(&counter)
    #expect(RunEstimate.tallyBytes(plan: plan) == counter.bytes)
    #expect(counter.bytes > 0)
  }
}

/// Adds up the bytes of a tally's counts, as the estimate does.
private struct CountingVisitor: TallyVisitor {
  var bytes = 0
  mutating func visit(_ count: inout Int) { bytes += 8 }
  mutating func visit(_ count: inout Int128) { bytes += 16 }
  mutating func visit(low: inout UInt128, high: inout UInt128) { bytes += 32 }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { bytes += 16 }
}
