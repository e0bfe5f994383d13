import ArgumentParser
import Report
import ScenarioFormat
import Simulation

/// The bounds of the options that size a run, checked before anything runs,
/// so that devices × replications and the per-thread tables cannot overflow
/// (the scenario's own numbers are bounded by `ScenarioLimits`).
enum RunLimits {
  static let replications = ScenarioLimits.replications
  static let threads: ClosedRange<Int> = 1...1_024
  /// A Slurm job array's tasks: 100,000 is far above any cluster's MaxArraySize.
  static let shards: ClosedRange<Int> = 1...100_000

  static func check(devices: Int?) throws {
    guard let devices else { return }
    guard ScenarioLimits.devices.contains(devices) else {
      throw ValidationError(
        "--devices must lie between 1 and \(ScenarioLimits.devices.upperBound), not \(devices), e.g. --devices 10000.")
    }
  }

  static func check(threads: Int?) throws {
    guard let threads else { return }
    guard Self.threads.contains(threads) else {
      throw ValidationError("--threads must lie between 1 and \(Self.threads.upperBound), not \(threads), e.g. --threads 2.")
    }
  }

  static func check(replications: Int) throws {
    guard Self.replications.contains(replications) else {
      throw ValidationError(
        "--replications must lie between 1 and \(Self.replications.upperBound), not \(replications), e.g. --replications 200.")
    }
  }

  /// The most a run may take unless `--allow-large-run` says it is meant.
  static let seconds = 3_600.0
  static let bytes = 8e9

  /// Refuses `replications` of `plan` at `devices` devices on `threads` threads when the estimate
  /// exceeds the hour and the memory a run takes unless `allowed` (`--allow-large-run`), stating it.
  static func check(_ plan: SimulationPlan, devices: Int, replications: Int, threads: Int, allowed: Bool) throws {
    let estimate = RunEstimate(plan: plan, devices: devices, replications: replications, threads: threads)
    guard !allowed, estimate.seconds > seconds || estimate.bytes > bytes else { return }
    let launches = String(format: "%.2g", estimate.launches)
    throw BenchError.runTooLarge(
      estimate: "about \(duration(estimate.seconds)) on \(threads) thread\(threads == 1 ? "" : "s") (\(launches) launches) "
        + "and \(String(format: "%.1f", estimate.bytes / 1e9)) GB of memory")
  }

  /// How much slower a plain debug build (what `swift run bench` builds) runs
  /// a plan than the release build: issue 66's 2M-device plan took 22.6
  /// minutes with two replications in debug, about seven times the release build's.
  static let debugSlowdown = 7.0
  /// The shortest debug run worth a note: under half a minute the release
  /// build's own build time would eat what it saves.
  static let debugAdviceSeconds = 30.0

  /// For a plain debug build, the note that a run of `estimate` (the release
  /// build's seconds) would go about seven times faster with the release
  /// build, when it takes half a minute or more here; nil otherwise.
  static func debugBuildAdvice(releaseSeconds: Double) -> String? {
    let here = releaseSeconds * debugSlowdown
    guard here >= debugAdviceSeconds else { return nil }
    return "note: this bench is a debug build, which runs a plan about 7 times slower than the release build: this run "
      + "takes about \(duration(here)) here and about \(duration(releaseSeconds)) with `swift run -c release bench` and "
      + "the same arguments (or `swift build -c release` once, then .build/release/bench)."
  }

  /// Prints `debugBuildAdvice` for `replications` of `plan` on standard error
  /// unless `quiet`, in a plain debug build only (`make test`'s debug build
  /// optimises the device loop, and a release build needs no advice).
  static func adviseOnTheBuild(_ plan: SimulationPlan, devices: Int, replications: Int, threads: Int, quiet: Bool) {
    #if DEBUG && !LAB_BENCH_OPTIMIZED_DEBUG
      guard !quiet else { return }
      let estimate = RunEstimate(plan: plan, devices: devices, replications: replications, threads: threads)
      if let advice = debugBuildAdvice(releaseSeconds: estimate.seconds) { printError(advice) }
    #endif
  }

  /// How much slower `bench inspect --find` replays a device than the run's
  /// loop: it keeps each device's launches and events for the debug screen,
  /// on one thread. upgrade.json's 100,000 devices took 4.7 s to replay
  /// where `RunEstimate` gives 0.72 s for the loop: 6.5, rounded up.
  static let replaySlowdown = 8.0

  /// Refuses `bench inspect --find` over `devices` devices of `plan` when
  /// replaying them all, which a kind no device has makes it do, would take
  /// over the hour, unless `allowed` (`--allow-large-run`).
  static func checkReplay(_ plan: SimulationPlan, devices: Int, allowed: Bool) throws {
    let estimate = RunEstimate(plan: plan, devices: devices, replications: 1, threads: 1)
    let seconds = estimate.seconds * replaySlowdown
    guard !allowed, seconds > Self.seconds else { return }
    throw BenchError.replayTooLarge(estimate: "about \(duration(seconds)) on one thread (\(NumberFormat.count(devices)) devices)")
  }

  private static func duration(_ seconds: Double) -> String {
    switch seconds {
    case ..<120: return "\(Int(seconds.rounded())) seconds"
    case ..<7_200: return "\(Int((seconds / 60).rounded())) minutes"
    case ..<172_800: return "\(Int((seconds / 3_600).rounded())) hours"
    default: return "\(Int((seconds / 86_400).rounded())) days"
    }
  }
}
