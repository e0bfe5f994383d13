import ArgumentParser
import AtomicOutput
import Foundation
import Pipeline
import Platforms
import Report
import Results
import ScenarioFormat
import Simulation

extension Bench {
  /// Runs one plan under several frameworks and writes them side by side.
  public struct Compare: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
      abstract: "Run one experiment plan under several frameworks, or read it with several analysis engines, side by side.",
      discussion: """
        The scenario's service section is the plan: experiments and their dated changes. Each \
        framework runs it by its own rules (docs/compare.md says how the plan maps onto each, and \
        what a framework cannot express), with the same devices, seed and outcome model. Writes \
        <out>/<name>/comparison.md, and each framework's own report and results.json \
        in <out>/<name>/<framework>/. Try scenarios/compare-frameworks.json.

        With --engines, any plan instead runs its replications once and each is read by every \
        analysis engine named, as that platform's results page decides (docs/engines.md): writes \
        <out>/<name>-engines/engines.md. Try --engines bench,gbstats-bayesian,gbstats-sequential \
        scenarios/peeking.json.
        """
    )

    @OptionGroup var options: ScenarioOptions

    @OptionGroup var analysis: AnalysisOptions

    @Option(
      help: "The frameworks, comma-separated: \(ComparedFramework.all(platforms: PlatformRegistry.standard.traits).map(\.name).joined(separator: ", ")).")
    var frameworks: String = ComparedFramework.all(platforms: PlatformRegistry.standard.traits).map(\.name).joined(separator: ",")

    @Option(
      help: ArgumentHelp(
        "Compare analysis engines on the plan instead of frameworks, comma-separated: \(AnalysisEngine.allCases.map(\.rawValue).joined(separator: ", ")).",
        discussion: "Every replication is simulated once and read by each engine; writes <out>/<name>-engines/engines.md."))
    var engines: String?

    @Option(help: "With --engines: how many replications of the plan (default: as many as `bench run` makes).")
    var replications: Int?

    @Option(help: "Simulate on this many threads at once (default: the number of cores).")
    var threads: Int?

    @Option(help: "The folder that receives <name>/comparison.md and one folder per framework.", completion: .directory)
    var out: String = "reports"

    @OptionGroup var largeRun: LargeRunFlag

    @OptionGroup var output: QuietFlag

    public init() {}

    public func validate() throws {
      try RunLimits.check(threads: threads)
      if let replications {
        guard engines != nil else { throw ValidationError("--replications is for --engines; a comparison of frameworks runs the plan once each.") }
        try RunLimits.check(replications: replications)
      }
      if engines != nil { _ = try chosenEngines() } else { _ = try chosenFrameworks() }
    }

    func chosenFrameworks() throws -> [ComparedFramework] {
      let names = frameworks.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      var chosen: [ComparedFramework] = []
      for name in names {
        guard let framework = ComparedFramework.all(platforms: PlatformRegistry.standard.traits).first(where: { $0.name == name }) else {
          throw ValidationError(
            "--frameworks: '\(name)' is not a framework; use \(ComparedFramework.all(platforms: PlatformRegistry.standard.traits).map(\.name).joined(separator: ", ")).")
        }
        if !chosen.contains(framework) { chosen.append(framework) }
      }
      guard !chosen.isEmpty else { throw ValidationError("--frameworks must name at least one framework.") }
      return chosen
    }

    public func run() async throws {
      var (plan, warnings) = try options.load()
      plan.analysis = try analysis.applied(to: plan.analysis, metrics: plan.metrics.map(\.name))
      if !output.quiet {
        for warning in warnings { printError("warning: \(warning)") }
      }
      if engines != nil {
        try await compareEngines(plan)
        return
      }
      let frameworks = try chosenFrameworks()
      let threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
      let expressed = try frameworks.map { framework in try framework.express(plan) }
      // Each framework runs the plan once: as many runs as frameworks.
      try RunLimits.check(
        SimulationPlan(expressed[0].scenario), devices: plan.devices, replications: frameworks.count, threads: threads,
        allowed: largeRun.allowLargeRun)
      RunLimits.adviseOnTheBuild(
        SimulationPlan(expressed[0].scenario), devices: plan.devices, replications: frameworks.count, threads: threads,
        quiet: output.quiet)
      var runs: [ComparisonReport.Run] = []
      var reports: [(framework: String, report: ReportDocument, document: ResultsDocument)] = []
      let folder = URL(fileURLWithPath: out).appendingPathComponent(plan.name)
      for (framework, (scenario, notes)) in zip(frameworks, expressed) {
        let simulator = Simulator(plan: SimulationPlan(scenario))
        let progress = ProgressBar(total: scenario.devices, enabled: !output.quiet)
        let tally = await simulator.run(replication: 0, threads: threads) { progress.update($0) }
        progress.finish()
        var pipeline = AnalysisPipeline(simulating: scenario)
        pipeline.description += " Run under \(framework.name)."
        let document = pipeline.analyze(ResultsDocument(plan: simulator.plan, tally: tally))
        let report = pipeline.report(document)
        reports.append((framework.name, report, document))
        runs.append(ComparisonReport.Run(framework: framework.name, document: document, notes: notes, versions: scenario.versions))
      }
      try ReportFolder.stage(at: folder) { staged throws(OutputError) in
        for (framework, report, document) in reports {
          try ReportFolder.add(report, document: document, under: framework + "/", to: &staged)
        }
        try staged.write(MarkdownReport.render(ComparisonReport.document(plan: plan, runs: runs)), to: "comparison.md")
      }
      let reportURL = folder.appendingPathComponent("comparison.md")
      if !output.quiet {
        print("Ran \(plan.name) under \(frameworks.map(\.name).joined(separator: ", ")).")
        print("Wrote \(reportURL.relativePath)")
      }
    }
  }
}
