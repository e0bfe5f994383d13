import Foundation
import Platforms
import ScenarioFormat
import Simulation

extension Bench.Perf {
  /// The plan every framework runs for `--frameworks`: one experiment of two
  /// variations on half the users, opened to all on day 10 and set to 4:1 on
  /// day 20, over 30 days; a service's launches are decided by its
  /// platform's plug-in, Lab's by its sources.
  static func frameworkPlan(devices: Int) throws -> Scenario {
    let text = """
      {"name": "perf-frameworks", "seed": 7, "devices": \(devices), "days": 30,
       "versions": [{"version": "1.0", "releaseDay": 0}],
       "service": {"framework": "optimizely", "changes": [
         {"day": 0, "start": {"name": "Paywall", "variations": [{"name": "Control"}, {"name": "Treatment"}], "traffic": 0.5}},
         {"day": 10, "setTraffic": {"experiment": "Paywall", "traffic": 1}},
         {"day": 20, "setWeights": {"experiment": "Paywall", "weights": {"Control": 4, "Treatment": 1}}}]},
       "metrics": [{"name": "subscribed", "kind": "conversion", "baseline": 0.05}]}
      """
    return try Scenario.parse(Data(text.utf8)).scenario
  }

  /// Device-days per second of each framework on `frameworkPlan`, at the
  /// first --devices count, on every thread count asked for: the faster of
  /// two runs counts.
  func runFrameworks() async throws {
    let devices = deviceCounts.first ?? 200_000
    let plan = try Self.frameworkPlan(devices: devices)
    let threadCounts = threadCounts.isEmpty ? [ProcessInfo.processInfo.activeProcessorCount] : threadCounts
    if !json {
      print("framework      devices   days  threads   seconds   device-days/s   launches/s")
    }
    for framework in ComparedFramework.all(platforms: PlatformRegistry.standard.traits) {
      let scenario = try framework.express(plan).scenario
      let simulator = Simulator(plan: SimulationPlan(scenario))
      for threads in threadCounts {
        var seconds = Double.infinity, launches = 0
        for _ in 0..<2 {
          let start = ContinuousClock.now
          launches = await simulator.run(replication: 0, threads: threads).launches
          seconds = min(seconds, Self.seconds(since: start))
        }
        let deviceDays = Double(devices * scenario.days) / seconds
        if json {
          print(
            "{\"framework\": \"\(framework.name)\", \"devices\": \(devices), \"days\": \(scenario.days), \"threads\": \(threads), "
              + "\"seconds\": \(Measurement.significant(seconds)), \"deviceDaysPerSecond\": \(Int(deviceDays.rounded())), "
              + "\"launchesPerSecond\": \(Int((Double(launches) / seconds).rounded()))}")
        } else {
          print(
            framework.name.padding(toLength: 13, withPad: " ", startingAt: 0)
              + String(devices).leftPadded(9) + String(scenario.days).leftPadded(7) + String(threads).leftPadded(9)
              + Measurement.significant(seconds).leftPadded(10) + (Measurement.fixed(deviceDays / 1e6, 2) + "M").leftPadded(16)
              + (Measurement.fixed(Double(launches) / seconds / 1e6, 2) + "M").leftPadded(13))
        }
      }
    }
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: " ", count: max(0, width - count)) + self
  }
}
