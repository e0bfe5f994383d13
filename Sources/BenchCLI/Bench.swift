import ArgumentParser

/// The `bench` command: try a plan for changing running experiments on a
/// simulated population before it ships.
public struct Bench: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Try a plan for changing running A/B experiments before it ships.",
    usage: """
      bench <scenario.json> [--seed <seed>] [--devices <devices>] [--replications <replications>] [--out <folder>] ...
      bench <subcommand>
      """,
    discussion: """
      A scenario file describes the app versions you intend to ship, the Lab experiments \
      each one carries and how devices behave. bench drives a population of virtual \
      devices through it by Lab's exact rules and records what every device was shown.
      """,
    version: "0.1.0",
    subcommands: [Run.self, Merge.self, Slurm.self, Analyze.self, Describe.self, Inspect.self, Bucket.self, Impact.self, Compare.self, PlanTest.self, Perf.self, Fit.self],
    defaultSubcommand: Run.self
  )

  public init() {}
}
