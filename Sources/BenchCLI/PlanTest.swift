import ArgumentParser
import AtomicOutput
import Expectations
import Foundation
import Pipeline
import Platforms
import Results
import ScenarioFormat
import Simulation

extension Bench {
  /// Runs plans and checks what each promises in its `expect` list.
  public struct PlanTest: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      commandName: "test",
      abstract: "Run plans and check their expectations: one line each, exit status 1 when one fails.",
      discussion: """
        Each plan's "expect" list (docs/scenarios.md) names what must hold: the share of an \
        experiment's devices an upgrade reshuffles or shows two variants, the devices a dashboard \
        change moves, key clashes, the sample ratio check, a rule that must or must not fire, and \
        how often the decision ships a true winner or a wrong variant over the plan's replications. \
        Plans run with their own seed and size, once, or with their replications when a decision's \
        rate is expected; a rate fails only when its 95% interval lies wholly beyond the bound and \
        is undecided while the interval holds it. Plans without expectations are listed and skipped.
        """
    )

    @Argument(help: "The plans: scenario files with an \"expect\" list.", completion: .file(extensions: ["json"]))
    var plans: [String]

    @Option(help: "Also write the results as JUnit XML to this file, for a CI system's test report.", completion: .file(extensions: ["xml"]))
    var junit: String?

    @Option(help: "Run every plan this many times (default: 1, or the plan's default replications when it expects a decision's rate).")
    var replications: Int?

    @Option(help: "Simulate on this many threads at once (default: the number of cores).")
    var threads: Int?

    @OptionGroup var largeRun: LargeRunFlag

    @OptionGroup var output: QuietFlag

    public init() {}

    public func validate() throws {
      try RunLimits.check(threads: threads)
      if let replications { try RunLimits.check(replications: replications) }
      guard !plans.isEmpty else { throw ValidationError("name at least one plan, e.g. bench test scenarios/*.json") }
    }

    public func run() async throws {
      let threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
      // Every plan read first: a typo in the last one is worth knowing before the first has run.
      var scenarios: [Scenario] = []
      for path in plans {
        let (scenario, warnings) = try Scenario.parse(try Scenario.read(path: path))
        if !output.quiet {
          for warning in warnings { printError("warning: \(path): \(warning)") }
        }
        scenarios.append(scenario)
      }
      guard scenarios.contains(where: { !$0.expectations.isEmpty }) else {
        throw BenchError.invalidFile(
          option: "bench test", problem: "no plan has an \"expect\" list: add one (docs/scenarios.md, \"Expectations\") to test a plan.")
      }
      var checked: [(plan: String, outcomes: [ExpectationOutcome])] = []
      for scenario in scenarios {
        guard !scenario.expectations.isEmpty else {
          print("\(scenario.name): no expectations, skipped")
          continue
        }
        let outcomes = try await check(scenario, threads: threads)
        checked.append((scenario.name, outcomes))
        for outcome in outcomes { print("  \(outcome.line)") }
      }
      let all = checked.flatMap(\.outcomes)
      let failed = all.filter { $0.status == .failed }.count, undecided = all.filter { $0.status == .undecided }.count
      if let junit {
        do {
          try AtomicFile.write(Data(JUnitReport.xml(checked).utf8), to: URL(fileURLWithPath: junit))
        } catch {
          throw BenchError.unwritableFolder(option: "--junit", path: error.path, reason: error.reason)
        }
      }
      print(
        "\(all.count) expectation\(all.count == 1 ? "" : "s") of \(checked.count) plan\(checked.count == 1 ? "" : "s"): "
          + "\(all.count - failed - undecided) passed, \(failed) failed, \(undecided) undecided"
          + (junit.map { "; wrote \($0)" } ?? ""))
      if failed > 0 { throw ExitCode(1) }
    }

    /// Runs one plan as `bench` would and checks its expectations against the results.
    private func check(_ scenario: Scenario, threads: Int) async throws -> [ExpectationOutcome] {
      let replications = replications ?? PlanCheck.replications(for: scenario)
      try RunLimits.check(
        SimulationPlan(scenario), devices: scenario.devices, replications: replications, threads: threads,
        allowed: largeRun.allowLargeRun)
      RunLimits.adviseOnTheBuild(
        SimulationPlan(scenario), devices: scenario.devices, replications: replications, threads: threads, quiet: output.quiet)
      print("\(scenario.name): \(CountText.grouped(scenario.devices)) devices, \(CountText.grouped(replications)) replication\(replications == 1 ? "" : "s")")
      let progress = ProgressBar(devices: scenario.devices, replications: replications, enabled: !output.quiet)
      let check = await PlanCheck.run(scenario, replications: replications, threads: threads) { progress.update($0) }
      progress.finish()
      return check.outcomes
    }
  }
}
