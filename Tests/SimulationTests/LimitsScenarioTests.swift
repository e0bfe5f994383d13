import Foundation
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
  mutating func visit(_ count: inout UInt128) { bytes += 16 }
  mutating func visit(_ count: inout Int?) { bytes += 16 }
}
