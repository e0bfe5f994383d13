/// What a run will cost before it starts: launches, seconds and bytes, so that
/// a mistyped `--devices 1e12` is refused in a second instead of running for
/// weeks or exhausting memory halfway.
///
/// The figures are estimates on the safe side: the rate is the slow end of
/// what `bench perf` measures (docs/performance.md: 6 to 14 million launches
/// per second per thread in release builds on its five-experiment workload),
/// scaled by how many experiments a launch decides.
public struct RunEstimate: Hashable, Sendable {
  /// Launches per second per thread on `bench perf`'s five-experiment workload.
  public static let launchesPerSecondPerThread = 5_000_000.0

  /// The analysis and report's time per daily cohort (a variant's metric on
  /// one day): 64 variants over 3,660 days with 4 metrics, 937,000 cohorts,
  /// took 14 s on this project's 2-core machine in a debug build.
  public static let secondsPerCohort = 2e-5

  /// Each batch's set-up per experiment of each configuration revision (the
  /// service's datafiles or payloads, the remote configurations), which every
  /// batch builds for itself: 30 revisions of 516 experiments on average took
  /// 70 ms a batch on this project's 2-core machine (release build), 4.5 µs
  /// each; the estimate takes twice that.
  public static let secondsPerRevisionExperiment = 1e-5

  /// The expected launches of the whole run.
  public let launches: Double
  /// Wall-clock seconds on `threads` threads.
  public let seconds: Double
  /// Peak memory of the tallies: one per replication kept for the analysis,
  /// and one per thread being filled.
  public let bytes: Double

  public init(plan: SimulationPlan, devices: Int, replications: Int, threads: Int) {
    let scenario = plan.scenario
    let launchesPerDevice = scenario.population.segments.reduce(0.0) {
      $0 + $1.share * $1.dailyLaunchProbability * $1.activity.launchesPerActiveDay * Double(scenario.days)
    }
    launches = Double(devices) * Double(replications) * launchesPerDevice
    let experimentsPerLaunch = Double(max(plan.experimentNames.count, 5)) / 5
    let cohorts = plan.variantNames.map(\.count).reduce(0, +) * scenario.days * scenario.metrics.count
    let batches = Double((devices + Simulator.defaultBatchSize - 1) / Simulator.defaultBatchSize * replications)
    let revisionExperiments =
      (scenario.service?.revisions.count ?? 0) * plan.serviceExperiments.count
      + (scenario.remote?.revisions.count ?? 0) * plan.remoteExperiments.count
    seconds = launches * experimentsPerLaunch / (Self.launchesPerSecondPerThread * Double(max(threads, 1)))
      + Double(cohorts * replications) * Self.secondsPerCohort
      + batches * Double(revisionExperiments) * Self.secondsPerRevisionExperiment / Double(max(threads, 1))
    bytes = Double(Self.tallyBytes(plan: plan)) * Double(replications + threads)
  }

  /// The bytes of one tally of `plan`, measured on tallies of one and two
  /// days and extended linearly, so that a plan whose tally would fill the
  /// memory is measured without allocating it.
  public static func tallyBytes(plan: SimulationPlan) -> Int {
    func bytes(days: Int) -> Int {
      var counter = ByteCounter()
      var tally = RunTally(plan: plan, days: days)
      tally.visitCounts(&counter)
      return counter.bytes
    }
    let one = bytes(days: 1), two = bytes(days: 2)
    return one + (two - one) * (plan.scenario.days - 1)
  }
}

/// Adds up the bytes of every count a tally holds.
private struct ByteCounter: TallyVisitor {
  var bytes = 0

  mutating func visit(_ count: inout Int) { bytes += MemoryLayout<Int>.stride }
  mutating func visit(_ count: inout Int128) { bytes += MemoryLayout<Int128>.stride }
  mutating func visit(low: inout UInt128, high: inout UInt128) { bytes += 2 * MemoryLayout<UInt128>.stride }
  mutating func visit(_ day: inout Int?, keeping _: DayBound) { bytes += MemoryLayout<Int?>.stride }
}
