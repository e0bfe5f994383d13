import ArgumentParser

/// The `bench` command: try a plan for changing running experiments on a
/// simulated population before it ships.
public struct Bench: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Try a plan for changing running A/B experiments before it ships.",
    discussion: """
      A scenario file describes the app versions you intend to ship and the Lab \
      experiments each one carries. The simulation engine is not built yet: for now \
      bench loads a scenario, validates it, and describes the plan version by version, \
      with the Lab rule that decides what each change does to devices.
      """,
    version: "0.1.0",
    subcommands: [Run.self, Perf.self],
    defaultSubcommand: Run.self
  )

  public init() {}
}
